package dev.opledger.e2e.mcp;

import dev.opledger.mcp.internal.McpProperties;
import dev.opledger.mcp.internal.McpProtocol;
import dev.opledger.testing.TestDatabase;
import dev.opledger.tools.ReferenceTools;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.fault.Faults;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The reference tool server of this test JVM: in-process, on a free port, its tables in its own
 * schema of the test JVM's database ({@link TestDatabase}); the JVM's shutdown stops it. Tests
 * tell their effects apart by operation id, never by emptying tables.
 */
public final class ReferenceToolsFixture {

    private static ReferenceToolsServer server;

    private ReferenceToolsFixture() {
    }

    public static synchronized ReferenceToolsServer server() {
        if (server == null) {
            var database = TestDatabase.shared();
            server = ReferenceTools.start(0, database.url(), database.username(), database.password());
        }
        return server;
    }

    static String newOperationId() {
        return "op-" + UUID.randomUUID();
    }

    /** Settings of the reference tool server in this revision, with a fault header if given. */
    static McpProperties.Server settings(McpProtocol protocol, Duration timeout, String... faultHeader) {
        Map<String, String> headers = faultHeader.length == 0 ? Map.of() : Map.of(Faults.HEADER, faultHeader[0]);
        return McpProperties.Server.http(server().url(), protocol, timeout, headers);
    }

    static McpProperties properties(String name, McpProperties.Server settings) {
        return new McpProperties(Map.of(name, settings));
    }

    /** An operation's step's arguments, plus the tool's own. */
    static Map<String, Object> step(String operationId, String stepKey, Object... nameValuePairs) {
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("operationId", operationId);
        arguments.put("stepKey", stepKey);
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            arguments.put((String) nameValuePairs[i], nameValuePairs[i + 1]);
        }
        return arguments;
    }

    /** An MCP URL where nothing listens. */
    static URI nobodyListening() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/mcp");
        }
    }
}

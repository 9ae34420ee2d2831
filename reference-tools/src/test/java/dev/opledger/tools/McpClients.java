package dev.opledger.tools;

import dev.opledger.tools.fault.Faults;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Real SDK clients of both revisions against a server, optionally sending a fault header. */
public final class McpClients {

    private McpClients() {
    }

    /** A 2026-07-28 client. */
    public static McpSyncClient modern(URI url) {
        return modern(url, null);
    }

    public static McpSyncClient modern(URI url, @Nullable String faultHeader) {
        var transport = HttpClientMcpTransport.builder(url);
        if (faultHeader != null) {
            transport.requestCustomizer(McpHttpRequestCustomizer.fromSync(
                    (request, headers, context) -> headers.set(Faults.HEADER, faultHeader)));
        }
        return McpClient.sync(transport.build())
                .clientInfo(Implementation.builder("reference-tools-test", "1").build())
                .callTimeout(Duration.ofSeconds(20))
                .build();
    }

    /** An initialized 2025-11-25 client; close it. */
    public static io.modelcontextprotocol.client.McpSyncClient classic(URI url, @Nullable String faultHeader) {
        var transport = HttpClientStreamableHttpTransport.builder(url.resolve("/").toString()).endpoint(url.getPath());
        if (faultHeader != null) {
            transport.httpRequestCustomizer(
                    (request, method, endpoint, body, context) -> request.header(Faults.HEADER, faultHeader));
        }
        var client = io.modelcontextprotocol.client.McpClient.sync(transport.build())
                .clientInfo(new McpSchema.Implementation("reference-tools-test", "1"))
                .requestTimeout(Duration.ofSeconds(20))
                .build();
        client.initialize();
        return client;
    }

    /** Arguments of a call by an operation's step, plus the tool's own. */
    public static Map<String, Object> step(String operationId, String stepKey, Object... nameValuePairs) {
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("operationId", operationId);
        arguments.put("stepKey", stepKey);
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            arguments.put((String) nameValuePairs[i], nameValuePairs[i + 1]);
        }
        return arguments;
    }

    public static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.tool(tool).arguments(arguments).call();
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> structured(CallToolResult result) {
        return (Map<String, Object>) result.structuredContent();
    }

    public static boolean isError(CallToolResult result) {
        return Boolean.TRUE.equals(result.isError());
    }
}

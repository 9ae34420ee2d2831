package dev.opledger.mcp.internal;

import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolReply;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 2025-11-25 revision: an {@code initialize} handshake, then a session (over HTTP the SDK
 * re-initializes when the server forgets the session; a dropped POST leaves the session usable).
 */
final class ClassicConnection implements McpConnection {

    private static final Logger log = LoggerFactory.getLogger(ClassicConnection.class);

    private final McpSyncClient client;
    private final McpProperties.Server server;

    private ClassicConnection(McpSyncClient client, McpProperties.Server server) {
        this.client = client;
        this.server = server;
    }

    /** Starts a stdio server's process, and initializes: the handshake has happened when this returns. */
    static ClassicConnection open(String name, McpProperties.Server server) {
        McpSyncClient client = McpClient.sync(server.isStdio() ? stdio(name, server) : http(server))
                .clientInfo(new Implementation(ClientIdentity.NAME, ClientIdentity.VERSION))
                .requestTimeout(server.timeout())
                .initializationTimeout(server.timeout())
                .build();
        try {
            client.initialize();
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        return new ClassicConnection(client, server);
    }

    @Override
    public McpProtocol protocol() {
        return McpProtocol.CLASSIC;
    }

    @Override
    public ToolReply call(String tool, Map<String, Object> arguments, Map<String, Object> meta) {
        return Replies.of(client.callTool(new CallToolRequest(tool, arguments, meta.isEmpty() ? null : meta)));
    }

    @Override
    public Map<String, ToolHints> tools() {
        Map<String, ToolHints> tools = new LinkedHashMap<>();
        for (Tool tool : client.listTools().tools()) {
            tools.put(tool.name(), hints(tool.annotations()));
        }
        return tools;
    }

    @Override
    public void close() {
        try {
            if (!client.closeGracefully()) {
                client.close();
            }
        } catch (RuntimeException e) {
            log.debug("closing the session with {} failed", server.location(), e);
        }
    }

    private static ToolHints hints(@Nullable ToolAnnotations annotations) {
        return annotations == null ? new ToolHints(null, null, null, null)
                : new ToolHints(annotations.readOnlyHint(), annotations.idempotentHint(), annotations.destructiveHint(),
                        annotations.openWorldHint());
    }

    private static McpClientTransport http(McpProperties.Server server) {
        URI url = server.url();
        String endpoint = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        var builder = HttpClientStreamableHttpTransport.builder(url.resolve("/").toString())
                .endpoint(endpoint)
                .connectTimeout(Connector.connectTimeout(server));
        if (!server.headers().isEmpty()) {
            builder.httpRequestCustomizer(
                    (request, method, uri, body, context) -> server.headers().forEach(request::header));
        }
        return builder.build();
    }

    private static McpClientTransport stdio(String name, McpProperties.Server server) {
        ServerParameters parameters = ServerParameters.builder(server.command()).args(server.args()).build();
        var transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> log.debug("[{} stderr] {}", name, line));
        return transport;
    }
}

package dev.opledger.mcp.internal;

import dev.opledger.mcp.ListedTool;
import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolReply;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
    public ToolReply call(String tool, Map<String, Object> arguments, Map<String, Object> meta, Duration timeout) {
        var request = new CallToolRequest(tool, arguments, meta.isEmpty() ? null : meta);
        if (timeout.compareTo(server.timeout()) >= 0) {
            return Replies.of(client.callTool(request));
        }
        // the classic client's timeout is one per client: a shorter one is waited for here, and the
        // request left behind is the SDK's to time out (a stdio connection is replaced after it)
        var pending = CompletableFuture.supplyAsync(() -> client.callTool(request),
                command -> Thread.ofVirtual().name("mcp-call-" + tool).start(command));
        try {
            return Replies.of(pending.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw new IllegalStateException("no answer within " + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + tool, e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
    }

    /** 2025-11-25 has no tasks: nothing is sent, and the task is unknown here. */
    @Override
    public TaskState task(String taskId, Duration timeout) {
        return new TaskState.NotFound("MCP " + protocol() + " has no tasks: task " + taskId + " is unknown to "
                + server.location());
    }

    /** 2025-11-25 has no {@code tasks/cancel}: nothing is sent, and the request counts as refused. */
    @Override
    public TaskCancellation cancelTask(String taskId, Duration timeout) {
        return TaskCancellation.REFUSED;
    }

    @Override
    public List<ListedTool> listTools() {
        List<ListedTool> tools = new ArrayList<>();
        McpSchema.ListToolsResult page = client.listTools();
        while (true) {
            for (Tool tool : page.tools()) {
                tools.add(new ListedTool(tool.name(), tool.title(), tool.description(), tool.inputSchema(),
                        hints(tool.annotations())));
            }
            if (page.nextCursor() == null) {
                return tools;
            }
            page = client.listTools(page.nextCursor());
        }
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
                .connectTimeout(Connector.connectTimeout(server))
                .customizeClient(McpHttpClients::configure);
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

package dev.opledger.mcp.internal;

import dev.opledger.mcp.ListedTool;
import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolAnswer;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolReply;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.McpSchema.ToolAnnotations;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 2026-07-28 revision: stateless, no handshake; every request carries its version and the
 * client's capabilities. Over HTTP each call is one POST, so there is nothing to re-establish. A
 * call that allows a task, and the task methods, go through {@link TaskRequests}.
 */
final class ModernConnection implements McpConnection {

    private static final Logger log = LoggerFactory.getLogger(ModernConnection.class);
    /** How long a stdio server gets to exit after its input closes, then after SIGTERM. */
    private static final Duration STDIO_SHUTDOWN_TIME = Duration.ofSeconds(2);

    private final McpClientTransport transport;
    private final McpSyncClient client;
    private final TaskRequests tasks;
    private final McpProperties.Server server;

    private ModernConnection(McpClientTransport transport, McpProperties.Server server) {
        this.transport = transport;
        this.server = server;
        this.client = client(transport, server.timeout());
        this.tasks = new TaskRequests(transport, McpJsonDefaults.getMapper());
    }

    /** A client of the server; a stdio server's process is started now, nothing is sent yet. */
    static ModernConnection open(String name, McpProperties.Server server) {
        return new ModernConnection(server.isStdio() ? stdio(name, server) : http(server), server);
    }

    /** {@code server/discover}, given at most {@code timeout}: fails if the server does not speak this revision. */
    void discover(Duration timeout) {
        client(transport, timeout).discover();
    }

    @Override
    public McpProtocol protocol() {
        return McpProtocol.MODERN;
    }

    @Override
    public ToolReply call(String tool, Map<String, Object> arguments, Map<String, Object> meta, Duration timeout) {
        var call = client.tool(tool).arguments(arguments).meta(meta);
        if (timeout.compareTo(server.timeout()) < 0) {
            call = call.callTimeout(timeout).roundTimeout(timeout);
        }
        return Replies.of(call.call());
    }

    @Override
    public ToolAnswer callAllowingTask(String tool, Map<String, Object> arguments, Map<String, Object> meta,
            Duration timeout) {
        return tasks.call(tool, arguments, meta, limited(timeout));
    }

    @Override
    public TaskState task(String taskId, Duration timeout) {
        return tasks.get(taskId, limited(timeout));
    }

    @Override
    public TaskCancellation cancelTask(String taskId, Duration timeout) {
        return tasks.cancel(taskId, limited(timeout));
    }

    private Duration limited(Duration timeout) {
        return timeout.compareTo(server.timeout()) < 0 ? timeout : server.timeout();
    }

    @Override
    public List<ListedTool> listTools() {
        List<ListedTool> tools = new ArrayList<>();
        for (Tool tool : client.listTools().skipCache().list().tools()) {
            tools.add(new ListedTool(tool.name(), tool.title(), tool.description(), tool.inputSchema(),
                    hints(tool.annotations())));
        }
        return tools;
    }

    @Override
    public void close() {
        if (transport instanceof StdioMcpClientTransport process) {
            try {
                process.close();
            } catch (RuntimeException e) {
                log.debug("closing the process of {} failed", server.location(), e);
            }
        }
    }

    private static ToolHints hints(@Nullable ToolAnnotations annotations) {
        return annotations == null ? new ToolHints(null, null, null, null)
                : new ToolHints(annotations.readOnlyHint(), annotations.idempotentHint(), annotations.destructiveHint(),
                        annotations.openWorldHint());
    }

    private static McpSyncClient client(McpClientTransport transport, Duration timeout) {
        return McpClient.sync(transport)
                .clientInfo(Implementation.builder(ClientIdentity.NAME, ClientIdentity.VERSION).build())
                .callTimeout(timeout)
                .roundTimeout(timeout)
                .build();
    }

    private static McpClientTransport http(McpProperties.Server server) {
        var builder = HttpClientMcpTransport.builder(server.url()).connectTimeout(Connector.connectTimeout(server))
                .jsonMapper(new PlainResponseMapper(McpJsonDefaults.getMapper()))
                .customizeClient(McpHttpClients::configure);
        if (!server.headers().isEmpty()) {
            builder.requestCustomizer(McpHttpRequestCustomizer.fromSync(
                    (request, headers, context) -> server.headers().forEach(headers::set)));
        }
        return builder.build();
    }

    private static McpClientTransport stdio(String name, McpProperties.Server server) {
        ServerParameters parameters = ServerParameters.builder(server.command()).args(server.args()).build();
        return StdioMcpClientTransport.builder(parameters)
                .jsonMapper(new PlainResponseMapper(McpJsonDefaults.getMapper()))
                .stderrConsumer(line -> log.debug("[{} stderr] {}", name, line))
                .shutdownTimeout(STDIO_SHUTDOWN_TIME)
                .start();
    }
}

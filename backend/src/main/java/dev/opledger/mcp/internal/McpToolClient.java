package dev.opledger.mcp.internal;

import org.springframework.beans.factory.annotation.Autowired;
import dev.opledger.operation.OperationSpans;
import dev.opledger.mcp.ListedTool;
import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolAnswer;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolServer;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.mcp.ToolUnreachableException;
import dev.opledger.operation.OperationMdc;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * {@link ToolClient} on the MCP Java SDK, for the servers of {@code opledger.mcp.servers}. A
 * server's client is made on its first use and shared by all threads; {@code auto} finds its
 * revision once. A tool's own error and a request the server refused are replies; every other
 * failure leaves the outcome unknown and is a {@link ToolTransportException}.
 *
 * <p>Arguments and results can hold personal data: they are logged at DEBUG only. The call's
 * {@code operationId} and {@code stepKey} go along as request {@code _meta}
 * ({@value #OPERATION_META}, {@value #STEP_META}) for the server's logs, and into the MDC.
 */
@Component
public class McpToolClient implements ToolClient, AutoCloseable {

    static final String OPERATION_META = "dev.opledger/operationId";
    static final String STEP_META = "dev.opledger/stepKey";

    private static final Logger log = LoggerFactory.getLogger(McpToolClient.class);

    private final Map<String, ConfiguredServer> servers;
    private final OperationSpans spans;

    /** A client that sends no trace context (tests, tools). */
    public McpToolClient(McpProperties properties) {
        this(properties, OperationSpans.none());
    }

    /**
     * A client whose {@code tools/call} requests carry the caller's trace context in their
     * {@code _meta} ({@code traceparent}, {@code tracestate}: SEP-414's keys).
     */
    @Autowired
    public McpToolClient(McpProperties properties, OperationSpans spans) {
        Map<String, ConfiguredServer> servers = new LinkedHashMap<>();
        properties.servers().forEach((name, settings) -> servers.put(name, new ConfiguredServer(name, settings)));
        this.servers = Map.copyOf(servers);
        this.spans = spans;
    }

    /**
     * @throws IllegalArgumentException if no server of that name is configured
     */
    @Override
    public ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException {
        return call(tool, arguments, server(tool.server()).settings().timeout());
    }

    /**
     * @throws IllegalArgumentException if no server of that name is configured
     */
    @Override
    public ToolReply call(ToolRef tool, Map<String, Object> arguments, Duration timeout) throws ToolTransportException {
        return calling(tool, arguments, timeout, "call", (connection, limit) -> {
            ToolReply reply = connection.call(tool.tool(), arguments, meta(arguments), limit);
            log.debug("{} answered {}", tool, reply);
            return reply;
        }, Replies::refused);
    }

    /**
     * @throws IllegalArgumentException if no server of that name is configured
     */
    @Override
    public ToolAnswer callAllowingTask(ToolRef tool, Map<String, Object> arguments, @Nullable Duration timeout)
            throws ToolTransportException {
        return calling(tool, arguments, timeout == null ? server(tool.server()).settings().timeout() : timeout, "call", (connection, limit) -> {
            ToolAnswer answer = connection.callAllowingTask(tool.tool(), arguments, meta(arguments), limit);
            log.debug("{} answered {}", tool, answer);
            return answer;
        }, refusal -> new ToolAnswer.Replied(Replies.refused(refusal)));
    }

    /**
     * @throws IllegalArgumentException if no server of that name is configured
     */
    @Override
    public TaskState task(ToolRef tool, String taskId) throws ToolTransportException {
        Duration timeout = server(tool.server()).settings().timeout();
        return calling(tool, Map.of(), timeout, "tasks/get " + taskId + " for", (connection, limit) ->
                connection.task(taskId, limit), TaskState.NotFound::new);
    }

    /**
     * @throws IllegalArgumentException if no server of that name is configured
     */
    @Override
    public TaskCancellation cancelTask(ToolRef tool, String taskId) throws ToolTransportException {
        Duration timeout = server(tool.server()).settings().timeout();
        return calling(tool, Map.of(), timeout, "tasks/cancel " + taskId + " for", (connection, limit) ->
                connection.cancelTask(taskId, limit), refusal -> TaskCancellation.REFUSED);
    }

    /**
     * One request to the tool's server, given at most {@code timeout} (never more than the
     * server's): the server's refusal of the request is {@code refused}'s answer, any other failure
     * leaves the outcome unknown.
     */
    private <T> T calling(ToolRef tool, Map<String, Object> arguments, Duration timeout, String what,
            BiFunction<McpConnection, Duration, T> request, Function<String, T> refused) throws ToolTransportException {
        ConfiguredServer server = server(tool.server());
        Duration limit = timeout.compareTo(server.settings().timeout()) < 0 ? timeout : server.settings().timeout();
        try (var operation = OperationMdc.put(arguments.get("operationId") instanceof String id ? id : null)) {
            McpConnection connection = server.connection();
            log.debug("{} {} ({}) with {}", what, tool, connection.protocol(), arguments);
            try {
                return request.apply(connection, limit);
            } catch (RuntimeException e) {
                Optional<String> refusal = Failures.refusal(e);
                if (refusal.isPresent()) {
                    log.debug("{}: {}", tool, refusal.get());
                    return refused.apply(refusal.get());
                }
                if (Failures.find(e, InterruptedException.class) != null) {
                    Thread.currentThread().interrupt();
                }
                log.debug("{} {} failed", what, tool, e);
                server.failed(connection);
                if (Failures.unreachable(e)) {
                    throw new ToolUnreachableException(what + " " + tool + " (MCP " + connection.protocol() + "): "
                            + Failures.reason(e, limit) + "; nothing was sent", e);
                }
                throw new ToolTransportException(what + " " + tool + " (MCP " + connection.protocol() + "): "
                        + Failures.reason(e, limit) + "; it may or may not have run", e);
            }
        }
    }

    @Override
    public List<ToolServer> servers() {
        return servers.values().stream().map(server -> new ToolServer(server.name(),
                server.settings().isStdio() ? ToolServer.Transport.STDIO : ToolServer.Transport.HTTP,
                server.settings().location())).toList();
    }

    /**
     * @throws IllegalArgumentException if no server of that name is configured
     */
    @Override
    public List<ListedTool> list(String server) throws ToolTransportException {
        return server(server).list();
    }

    /** Empty when the server is not configured or cannot be reached, or does not list the tool. */
    @Override
    public Optional<ToolHints> hints(ToolRef tool) {
        ConfiguredServer server = servers.get(tool.server());
        if (server == null) {
            log.warn("no MCP server {} is configured (opledger.mcp.servers): no hints for {}", tool.server(), tool);
            return Optional.empty();
        }
        return server.hints(tool.tool());
    }

    /**
     * The revision spoken with the server: the configured one, or for {@code auto} the one found by
     * probing; empty while an {@code auto} server has not been reached yet.
     *
     * @throws IllegalArgumentException if no server of that name is configured
     */
    public Optional<McpProtocol> protocol(String server) {
        return server(server).protocol();
    }

    @Override
    public void close() {
        servers.values().forEach(ConfiguredServer::close);
    }

    private ConfiguredServer server(String name) {
        ConfiguredServer server = servers.get(name);
        if (server == null) {
            throw new IllegalArgumentException("no MCP server '" + name + "' is configured: set opledger.mcp.servers."
                    + name + ".url (or .command); configured: " + servers.keySet());
        }
        return server;
    }

    private Map<String, Object> meta(Map<String, Object> arguments) {
        Map<String, Object> meta = new LinkedHashMap<>();
        spans.inject(meta::put);
        if (arguments.get("operationId") instanceof String operationId) {
            meta.put(OPERATION_META, operationId);
        }
        if (arguments.get("stepKey") instanceof String stepKey) {
            meta.put(STEP_META, stepKey);
        }
        return meta;
    }
}

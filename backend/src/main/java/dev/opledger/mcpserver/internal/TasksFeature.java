package dev.opledger.mcpserver.internal;

import dev.opledger.claim.ClaimService;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.modern.server.McpAsyncResponse;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The tasks extension's methods. {@code tasks/get} reads the task (only the caller's own: another
 * subject's task id is "not found", -32602, like one that never existed) and reports its
 * operation's state now ({@link TaskView}); {@code tasks/update} is acknowledged and changes
 * nothing, since no operation type asks the client for input (the spec says to ignore responses
 * to requests that are not outstanding); {@code tasks/cancel} is not implemented yet and says so.
 * A client that does not declare the extension gets -32021 for each, as the spec requires.
 */
final class TasksFeature implements McpFeature {

    static final String GET = "tasks/get";
    static final String UPDATE = "tasks/update";
    static final String CANCEL = "tasks/cancel";

    /** SEP-2243's HeaderMismatch: a routing header disagrees with the body, or is missing. */
    private static final int HEADER_MISMATCH = -32020;

    /** JSON-RPC "method not found": the node does not (yet) do what tasks/cancel asks. */
    private static final int NOT_IMPLEMENTED = -32601;

    private final TaskStore tasks;
    private final ClaimService claims;
    private final McpServerProperties properties;

    TasksFeature(TaskStore tasks, ClaimService claims, McpServerProperties properties) {
        this.tasks = tasks;
        this.claims = claims;
        this.properties = properties;
    }

    @Override
    public Set<String> methods() {
        return Set.of(GET, UPDATE, CANCEL);
    }

    @Override
    public void capabilities(McpSchema.ServerCapabilities.Builder builder) {
        builder.extension(TaskView.EXTENSION, Map.of());
    }

    @Override
    public Mono<? extends McpAsyncResponse<? extends McpSchema.Result>> handle(McpRequestContext context, Object params) {
        // JDBC blocks: off the transport's threads
        return Mono.fromCallable(() -> McpAsyncResponse.result(answer(context, params)))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private McpSchema.Result answer(McpRequestContext context, Object params) {
        if (!OperationTools.declaresTasks(context)) {
            throw McpException.missingClientCapability(
                    ClientCapabilities.builder().extensions(Map.of(TaskView.EXTENSION, Map.of())).build());
        }
        Caller caller = Caller.of(context.transportContext());
        String taskId = params instanceof Map<?, ?> map && map.get("taskId") instanceof String id ? id : null;
        if (taskId == null) {
            throw McpException.invalidParams("params.taskId must be the task's id (a string)");
        }
        // SEP-2663 routes the tasks methods by Mcp-Name: <taskId>; the SDK checks it for tools only
        if (!taskId.equals(caller.routedName())) {
            throw new McpException(HEADER_MISMATCH, caller.routedName() == null
                    ? "Missing required header: Mcp-Name (the taskId of " + context.method() + ")"
                    : "Mcp-Name header does not match params.taskId");
        }
        var task = tasks.find(caller.subject(), taskId)
                .orElseThrow(() -> McpException.invalidParams("Failed to retrieve task: Task not found"));
        return switch (context.method()) {
            case GET -> {
                var operation = claims.find(caller.subject(), task.operationId()).orElseThrow(
                        () -> new IllegalStateException("task " + taskId + " has no operation " + task.operationId()));
                yield TaskView.get(task, operation, properties.pollInterval());
            }
            case UPDATE -> new TaskView.Acknowledgement(null);
            case CANCEL -> throw new McpException(NOT_IMPLEMENTED, "tasks/cancel is not implemented by this node yet: "
                    + "the task goes on; poll tasks/get for its outcome");
            default -> throw new McpException(NOT_IMPLEMENTED, "method not found: " + context.method());
        };
    }
}

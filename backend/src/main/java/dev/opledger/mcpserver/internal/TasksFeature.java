package dev.opledger.mcpserver.internal;

import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
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
 * to requests that are not outstanding); {@code tasks/cancel} asks {@link CancelService} to cancel
 * the task's operation and answers the spec's empty acknowledgement, the same for every repeat and
 * whether or not the operation had ended (cancellation is cooperative and eventually consistent:
 * {@code tasks/get} shows where it got to).
 * A client that does not declare the extension gets -32021 for each, as the spec requires.
 */
final class TasksFeature implements McpFeature {

    static final String GET = "tasks/get";
    static final String UPDATE = "tasks/update";
    static final String CANCEL = "tasks/cancel";

    /** JSON-RPC "method not found". */
    private static final int NOT_IMPLEMENTED = -32601;

    private final TaskStore tasks;
    private final ClaimService claims;
    private final CancelService cancels;
    private final LifecycleService lifecycle;
    private final McpServerProperties properties;

    TasksFeature(TaskStore tasks, ClaimService claims, CancelService cancels, LifecycleService lifecycle,
            McpServerProperties properties) {
        this.tasks = tasks;
        this.claims = claims;
        this.cancels = cancels;
        this.lifecycle = lifecycle;
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
        var task = tasks.find(caller.subject(), taskId).orElseThrow(TasksFeature::notFound);
        return switch (context.method()) {
            case GET -> {
                var operation = claims.find(caller.subject(), task.operationId()).orElseThrow(
                        () -> new IllegalStateException("task " + taskId + " has no operation " + task.operationId()));
                yield TaskView.get(task, operation, lifecycle.cancel(task.operationId()), properties.pollInterval());
            }
            case UPDATE -> new TaskView.Acknowledgement(null);
            case CANCEL -> switch (cancels.cancelOwn(caller.subject(), task.operationId(), CancelChannel.MCP)) {
                case CancelOutcome.NotFound ignored -> throw notFound();
                case CancelOutcome.Pending ignored -> new TaskView.Acknowledgement(null);
                case CancelOutcome.Resolved ignored -> new TaskView.Acknowledgement(null);
                case CancelOutcome.AlreadyEnded ignored -> new TaskView.Acknowledgement(null);
            };
            default -> throw new McpException(NOT_IMPLEMENTED, "method not found: " + context.method());
        };
    }

    /** The spec's -32602 for a task id that is unknown, or another subject's (which must learn nothing). */
    private static McpException notFound() {
        return McpException.invalidParams("Failed to retrieve task: Task not found");
    }
}

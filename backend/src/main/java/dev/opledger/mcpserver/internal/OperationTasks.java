package dev.opledger.mcpserver.internal;

import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.ClientInput;
import dev.opledger.claim.LifecycleService;
import dev.opledger.claim.TransitionRecord;
import dev.opledger.mcptasks.GetTaskResult;
import dev.opledger.mcptasks.TaskHandler;
import dev.opledger.operation.OperationStatus;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The operations' tasks behind the extension's methods ({@code mcptasks.TasksFeature}, which
 * checks the client's declaration and the task id). {@code tasks/get} reads the task (only the
 * caller's own: another subject's task id is "not found", -32602, like one that never existed) and
 * reports its operation's state now ({@link TaskView}, with the open input requests of an
 * operation AWAITING_INPUT); {@code tasks/update} records the client's answers to them
 * ({@link #update}); {@code tasks/cancel} asks {@link CancelService}
 * to cancel the task's operation and is acknowledged (empty), the same for every repeat and whether
 * or not the operation had ended (cancellation is cooperative and eventually consistent:
 * {@code tasks/get} shows where it got to).
 */
final class OperationTasks implements TaskHandler {

    /** SEP-2243's HeaderMismatch: a routing header disagrees with the body, or is missing. */
    private static final int HEADER_MISMATCH = -32020;

    private final TaskStore tasks;
    private final ClaimService claims;
    private final CancelService cancels;
    private final LifecycleService lifecycle;
    private final McpServerProperties properties;

    OperationTasks(TaskStore tasks, ClaimService claims, CancelService cancels, LifecycleService lifecycle,
            McpServerProperties properties) {
        this.tasks = tasks;
        this.claims = claims;
        this.cancels = cancels;
        this.lifecycle = lifecycle;
        this.properties = properties;
    }

    @Override
    public Optional<GetTaskResult> get(McpRequestContext context, String taskId) {
        return DatabaseOutage.answering("tasks/get", () -> read(context, taskId));
    }

    private Optional<GetTaskResult> read(McpRequestContext context, String taskId) {
        Caller caller = routedCaller(context, taskId);
        return tasks.find(caller.subject(), taskId).map(task -> {
            var operation = claims.find(caller.subject(), task.operationId()).orElseThrow(
                    () -> new IllegalStateException("task " + taskId + " has no operation " + task.operationId()));
            Map<String, Object> inputRequests = null;
            String summary = null;
            if (operation.status() == OperationStatus.AWAITING_INPUT) {
                inputRequests = new LinkedHashMap<>();
                for (ClientInput input : lifecycle.inputs(task.operationId())) {
                    if (input.open()) {
                        inputRequests.put(input.key(), InputResponses.request(input));
                    }
                }
            } else if (operation.status() == OperationStatus.SUCCEEDED) {
                // what the run said it did: the reason of its last transition, to SUCCEEDED
                summary = lifecycle.transitions(task.operationId()).stream()
                        .filter(t -> t.to() == OperationStatus.SUCCEEDED).reduce((a, b) -> b)
                        .map(TransitionRecord::reason).orElse(null);
            }
            return TaskView.get(task, operation, lifecycle.cancel(task.operationId()), inputRequests, summary,
                    properties.pollInterval());
        });
    }

    /**
     * {@code tasks/update}: the responses are checked ({@link InputResponses}: a malformed one is
     * -32602 and nothing changes), those to requests still open are recorded once and, once none
     * is left open, the operation goes back to the workers; responses to keys not open are
     * ignored. The same empty acknowledgement for every well-formed update, its repeats included.
     */
    @Override
    public boolean update(McpRequestContext context, String taskId, Map<?, ?> params) {
        return DatabaseOutage.answering("tasks/update", () -> answer(context, taskId, params));
    }

    private boolean answer(McpRequestContext context, String taskId, Map<?, ?> params) {
        Caller caller = routedCaller(context, taskId);
        var task = tasks.find(caller.subject(), taskId);
        if (task.isEmpty()) {
            return false;
        }
        Map<String, ClientInput> open = new LinkedHashMap<>();
        for (ClientInput input : lifecycle.inputs(task.get().operationId())) {
            if (input.open()) {
                open.put(input.key(), input);
            }
        }
        Map<String, Object> responses = InputResponses.check(params.get("inputResponses"), open);
        if (!responses.isEmpty()) {
            lifecycle.answerInput(caller.subject(), task.get().operationId(), InputResponses.write(responses),
                    "mcp:" + caller.subject().value());
        }
        return true;
    }

    @Override
    public boolean cancel(McpRequestContext context, String taskId) {
        return DatabaseOutage.answering("tasks/cancel", () -> requestCancel(context, taskId));
    }

    private boolean requestCancel(McpRequestContext context, String taskId) {
        Caller caller = routedCaller(context, taskId);
        var task = tasks.find(caller.subject(), taskId);
        if (task.isEmpty()) {
            return false;
        }
        return switch (cancels.cancelOwn(caller.subject(), task.get().operationId(), CancelChannel.MCP)) {
            case CancelOutcome.NotFound ignored -> false;
            case CancelOutcome.Pending ignored -> true;
            case CancelOutcome.Resolved ignored -> true;
            case CancelOutcome.AlreadyEnded ignored -> true;
        };
    }

    /** The caller, once its Mcp-Name names the task: SEP-2663 routes the tasks methods by it; the SDK checks it for tools only. */
    private static Caller routedCaller(McpRequestContext context, String taskId) {
        Caller caller = Caller.of(context.transportContext());
        if (!taskId.equals(caller.routedName())) {
            throw new McpException(HEADER_MISMATCH, caller.routedName() == null
                    ? "Missing required header: Mcp-Name (the taskId of " + context.method() + ")"
                    : "Mcp-Name header does not match params.taskId");
        }
        return caller;
    }
}

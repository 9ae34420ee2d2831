package dev.opledger.mcpserver.internal;

import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.FailureKind;
import dev.opledger.claim.OperationState;
import dev.opledger.mcptasks.CreateTaskResult;
import dev.opledger.mcptasks.GetTaskResult;
import dev.opledger.operation.OperationStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A task of the tasks extension as the wire carries it: the task is the operation's handle, its
 * status the operation's (ext-tasks specification, "Tasks"):
 * <ul>
 *   <li>ACCEPTED, RUNNING → {@code working};</li>
 *   <li>AWAITING_APPROVAL, NEEDS_REVIEW → {@code working} with a status message saying a person
 *       decides ({@code input_required} is for input from the client);</li>
 *   <li>AWAITING_INPUT → {@code input_required} with {@code inputRequests}: every request of the
 *       run still open, by key (those answered are gone; once none is left the operation is
 *       ACCEPTED again, {@code working});</li>
 *   <li>SUCCEEDED, FAILED → {@code completed}, {@code result} the tool result (for FAILED with
 *       {@code isError: true}: the operation's failure is the tool's outcome, not a JSON-RPC error,
 *       and {@code failed} is only for those);</li>
 *   <li>FAILED because the run broke down ({@link FailureKind#BROKE_DOWN}: it threw) →
 *       {@code failed}, with {@code error} a JSON-RPC error {@value #BROKE_DOWN_CODE} and a
 *       generic message (the exception stays in the node's log), and no {@code result};</li>
 *   <li>CANCELLED → {@code cancelled}.</li>
 * </ul>
 */
final class TaskView {

    /** JSON-RPC's internal error: the node failed, not the request. */
    static final int BROKE_DOWN_CODE = -32603;
    private static final Map<String, Object> BROKE_DOWN = Map.of("code", BROKE_DOWN_CODE, "message",
            "The operation's run broke down on the node; nothing more is known to the client.");

    private TaskView() {
    }

    static CreateTaskResult created(TaskStore.StoredTask task, OperationState operation, Duration pollInterval) {
        return new CreateTaskResult(task.taskId(), status(operation), statusMessage(operation),
                task.createdAt().toString(), lastUpdated(task, operation).toString(), null, pollInterval.toMillis(),
                null);
    }

    /** With a cancel pending, the status message says so: the task stays {@code working} until the worker meets it. */
    static GetTaskResult get(TaskStore.StoredTask task, OperationState operation, Optional<CancelRecord> cancel,
            @Nullable Map<String, Object> inputRequests, @Nullable String summary, Duration pollInterval) {
        String status = status(operation);
        String message = statusMessage(operation) + (cancel.filter(CancelRecord::pending).isPresent()
                ? " A cancel was requested: the run stops at its next step boundary, before any further effect." : "");
        return new GetTaskResult(task.taskId(), status, message, task.createdAt().toString(),
                lastUpdated(task, operation).toString(), null, pollInterval.toMillis(),
                "input_required".equals(status) ? inputRequests : null,
                "completed".equals(status) ? OperationView.result(operation, summary) : null,
                "failed".equals(status) ? BROKE_DOWN : null, null);
    }

    static String status(OperationState operation) {
        return status(operation.status(), operation.failure());
    }

    /** The MCP task status an operation in this status (and, when FAILED, of this kind of failure) shows. */
    static String status(OperationStatus status, @Nullable FailureKind failure) {
        return switch (status) {
            case ACCEPTED, RUNNING, AWAITING_APPROVAL, NEEDS_REVIEW -> "working";
            case AWAITING_INPUT -> "input_required";
            case FAILED -> failure == FailureKind.BROKE_DOWN ? "failed" : "completed";
            case SUCCEEDED -> "completed";
            case CANCELLED -> "cancelled";
        };
    }

    private static String statusMessage(OperationState operation) {
        return OperationView.sentence(operation);
    }

    private static Instant lastUpdated(TaskStore.StoredTask task, OperationState operation) {
        return operation.updatedAt().isAfter(task.createdAt()) ? operation.updatedAt() : task.createdAt();
    }
}

package dev.opledger.mcpserver.internal;

import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.OperationState;
import dev.opledger.mcptasks.CreateTaskResult;
import dev.opledger.mcptasks.GetTaskResult;
import dev.opledger.operation.OperationStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A task of the tasks extension as the wire carries it: the task is the operation's handle, its
 * status the operation's (ext-tasks specification, "Tasks"):
 * <ul>
 *   <li>ACCEPTED, RUNNING → {@code working};</li>
 *   <li>AWAITING_APPROVAL, NEEDS_REVIEW → {@code working} with a status message saying a person
 *       decides ({@code input_required} is for input from the client, which no type asks for);</li>
 *   <li>SUCCEEDED, FAILED → {@code completed}, {@code result} the tool result (for FAILED with
 *       {@code isError: true}: the operation's failure is the tool's outcome, not a JSON-RPC error,
 *       and {@code failed} is only for those);</li>
 *   <li>CANCELLED → {@code cancelled}.</li>
 * </ul>
 */
final class TaskView {

    private TaskView() {
    }

    static CreateTaskResult created(TaskStore.StoredTask task, OperationState operation, Duration pollInterval) {
        return new CreateTaskResult(task.taskId(), status(operation), statusMessage(operation),
                task.createdAt().toString(), lastUpdated(task, operation).toString(), null, pollInterval.toMillis(),
                null);
    }

    /** With a cancel pending, the status message says so: the task stays {@code working} until the worker meets it. */
    static GetTaskResult get(TaskStore.StoredTask task, OperationState operation, Optional<CancelRecord> cancel,
            Duration pollInterval) {
        String status = status(operation);
        String message = statusMessage(operation) + (cancel.filter(CancelRecord::pending).isPresent()
                ? " A cancel was requested: the run stops at its next step boundary, before any further effect." : "");
        return new GetTaskResult(task.taskId(), status, message, task.createdAt().toString(),
                lastUpdated(task, operation).toString(), null, pollInterval.toMillis(),
                "completed".equals(status) ? OperationView.result(operation) : null, null, null);
    }

    static String status(OperationState operation) {
        return status(operation.status());
    }

    /** The MCP task status an operation in this status shows. */
    static String status(OperationStatus status) {
        return switch (status) {
            case ACCEPTED, RUNNING, AWAITING_APPROVAL, NEEDS_REVIEW -> "working";
            case SUCCEEDED, FAILED -> "completed";
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

package dev.opledger.mcpserver.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.opledger.claim.OperationState;
import dev.opledger.operation.OperationStatus;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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

    static final String EXTENSION = "io.modelcontextprotocol/tasks";

    private TaskView() {
    }

    /** The reply to a task-augmented {@code tools/call} ({@code resultType: "task"}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record CreateTaskResult(String taskId, String status, @Nullable String statusMessage, String createdAt,
            String lastUpdatedAt, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs, long pollIntervalMs,
            @JsonProperty("_meta") @Nullable Map<String, Object> meta) implements McpSchema.CallToolOutcome {

        @Override
        @JsonProperty("resultType")
        public String resultType() {
            return "task";
        }
    }

    /** The reply to {@code tasks/get} ({@code resultType: "complete"}, as the text says). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record GetTaskResult(String taskId, String status, @Nullable String statusMessage, String createdAt,
            String lastUpdatedAt, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs, long pollIntervalMs,
            @Nullable CallToolResult result, @JsonProperty("_meta") @Nullable Map<String, Object> meta)
            implements McpSchema.Result {

        @Override
        @JsonProperty("resultType")
        public String resultType() {
            return "complete";
        }
    }

    /** The empty acknowledgement of {@code tasks/update}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Acknowledgement(@JsonProperty("_meta") @Nullable Map<String, Object> meta) implements McpSchema.Result {

        @Override
        @JsonProperty("resultType")
        public String resultType() {
            return "complete";
        }
    }

    static CreateTaskResult created(TaskStore.StoredTask task, OperationState operation, Duration pollInterval) {
        return new CreateTaskResult(task.taskId(), status(operation), statusMessage(operation),
                task.createdAt().toString(), lastUpdated(task, operation).toString(), null, pollInterval.toMillis(),
                null);
    }

    static GetTaskResult get(TaskStore.StoredTask task, OperationState operation, Duration pollInterval) {
        String status = status(operation);
        return new GetTaskResult(task.taskId(), status, statusMessage(operation), task.createdAt().toString(),
                lastUpdated(task, operation).toString(), null, pollInterval.toMillis(),
                "completed".equals(status) ? OperationView.result(operation) : null, null);
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

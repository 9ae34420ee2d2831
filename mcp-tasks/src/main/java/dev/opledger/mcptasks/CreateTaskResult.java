package dev.opledger.mcptasks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.modelcontextprotocol.modern.McpSchema;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The reply to a task-augmented {@code tools/call} ({@code resultType: "task"}): the task's seed
 * state. A server returns it only once {@code tasks/get} for the id resolves.
 *
 * @param ttlMs null: kept without limit (always written, as the specification's type requires)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CreateTaskResult(String taskId, String status, @Nullable String statusMessage, String createdAt,
        String lastUpdatedAt, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs, long pollIntervalMs,
        @JsonProperty("_meta") @Nullable Map<String, Object> meta) implements McpSchema.CallToolOutcome {

    @Override
    @JsonProperty("resultType")
    public String resultType() {
        return "task";
    }
}

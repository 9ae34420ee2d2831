package dev.opledger.mcptasks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The reply to {@code tasks/get} ({@code resultType: "complete"}, as the specification's text
 * says, whatever its examples show): the task now, with {@code inputRequests} (every request
 * still open, by key) when {@code input_required}, {@code result} when completed (a tool result,
 * {@code isError: true} included) and {@code error} (the JSON-RPC error) when failed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GetTaskResult(String taskId, String status, @Nullable String statusMessage, String createdAt,
        String lastUpdatedAt, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Long ttlMs, long pollIntervalMs,
        @Nullable Map<String, Object> inputRequests, @Nullable CallToolResult result, @Nullable Map<String, Object> error,
        @JsonProperty("_meta") @Nullable Map<String, Object> meta) implements McpSchema.Result {

    @Override
    @JsonProperty("resultType")
    public String resultType() {
        return "complete";
    }
}

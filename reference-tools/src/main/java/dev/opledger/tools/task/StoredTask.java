package dev.opledger.tools.task;

import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A task as stored.
 *
 * @param status the wire's status: working, completed, cancelled or failed
 * @param result the tool's structured result once completed (an error's {@code {error, message}} when
 *     {@code isError})
 * @param summary the result's text, once completed; the reason once cancelled or failed
 * @param polls how many {@code tasks/get} asked for it
 */
public record StoredTask(String taskId, String tool, String status, @Nullable Map<String, Object> result,
        boolean isError, @Nullable String summary, @Nullable Integer errorCode, Instant createdAt, Instant updatedAt,
        int polls) {

    public StoredTask {
        result = result == null ? null : Map.copyOf(result);
    }
}

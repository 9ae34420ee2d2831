package dev.opledger.mcp;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A task a server made for a tool call (its CreateTaskResult): the handle to poll.
 *
 * @param taskId the server's id of the task: what {@code tasks/get} and {@code tasks/cancel} name
 * @param pollInterval the interval the server asks for between polls ({@code pollIntervalMs}), if any
 */
public record DownstreamTask(String taskId, TaskState state, @Nullable Duration pollInterval) {
}

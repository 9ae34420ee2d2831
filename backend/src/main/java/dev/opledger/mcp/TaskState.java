package dev.opledger.mcp;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** A downstream task as {@code tasks/get} reports it (ext-tasks specification, "Task Status"). */
public sealed interface TaskState {

    /** Not terminal: {@code working}, or {@code input_required} (input for the client, which the node does not give). */
    record Working(String status, @Nullable String message, @Nullable Duration pollInterval) implements TaskState {
    }

    /** {@code completed}: the tool's result, its own error ({@code isError}) included. */
    record Completed(ToolReply reply) implements TaskState {
    }

    /** {@code failed}: a JSON-RPC error during the work; what the tool did before is not known. */
    record Failed(int code, String message) implements TaskState {
    }

    /** {@code cancelled}: the work stopped before completing (the server says); whether part of it happened is not known. */
    record Cancelled(@Nullable String message) implements TaskState {
    }

    /** The server does not know the task (-32602): expired, purged, or never its. */
    record NotFound(String message) implements TaskState {
    }
}

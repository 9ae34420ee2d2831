package dev.opledger.effect;

import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.ToolRef;

/** What {@link EffectGateway#cancelDownstreamTask} did. */
public sealed interface DownstreamCancel {

    /** The step's record holds no downstream task in flight (none made, or it ended): nothing to cancel. */
    record NoTask() implements DownstreamCancel {
    }

    /** {@code tasks/cancel} was sent and answered; cooperative, so the task may still complete. */
    record Requested(ToolRef tool, String taskId, TaskCancellation answer) implements DownstreamCancel {
    }

    /** The server could not be reached or did not answer: the task goes on, or not. */
    record Unreachable(ToolRef tool, String taskId, String reason) implements DownstreamCancel {
    }
}

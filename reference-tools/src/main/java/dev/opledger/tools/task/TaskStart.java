package dev.opledger.tools.task;

import dev.opledger.tools.toolkit.ToolOutcome;

/** What a call of a task tool came to: its task (new, or the one its idempotency key made), or a refusal. */
public sealed interface TaskStart {

    record Started(StoredTask task, boolean existing) implements TaskStart {
    }

    /** Nothing started: bad arguments, an idempotency key used for other arguments, an invalid fault. */
    record Refused(ToolOutcome.Failure failure) implements TaskStart {
    }
}

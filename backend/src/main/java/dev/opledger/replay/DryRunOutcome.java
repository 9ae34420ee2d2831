package dev.opledger.replay;

import dev.opledger.operation.OperationStatus;
import java.util.UUID;

/** What a dry run came to. Only {@link Planned} has a plan; none changes anything. */
public sealed interface DryRunOutcome {

    record Planned(ReplayPlan plan) implements DryRunOutcome {
    }

    /** No such operation for this subject. */
    record NotFound() implements DryRunOutcome {
    }

    /** The operation's thread has no such checkpoint. */
    record CheckpointNotFound(UUID checkpointId) implements DryRunOutcome {
    }

    /** The operation cannot be replayed as it is now (a worker runs it, it waits for a person). */
    record NotReplayable(OperationStatus status, String why) implements DryRunOutcome {
    }
}

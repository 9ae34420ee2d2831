package dev.opledger.replay;

import dev.opledger.operation.OperationStatus;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** What starting a replay came to. Only {@link Started} changed anything. */
public sealed interface ReplayStartOutcome {

    /**
     * The operation is ACCEPTED again on its fork; the workers run it.
     *
     * @param forkCheckpoint the fork's first checkpoint (a copy of the chosen one, its child)
     * @param acknowledged the blocked steps the person took responsibility for
     */
    record Started(long replayId, UUID forkCheckpoint, ReplayPlan plan, List<String> acknowledged)
            implements ReplayStartOutcome {
    }

    /** Someone started a replay of this operation first and it has not come to rest yet; theirs runs. */
    record AlreadyReplaying(String actor, Instant startedAt) implements ReplayStartOutcome {
    }

    /** The records, the status or the thread changed since the dry run: here is the plan as it is now. */
    record StalePlan(ReplayPlan current) implements ReplayStartOutcome {
    }

    /** Only ADMIN may start a replay. */
    record NotAllowed(String why) implements ReplayStartOutcome {
    }

    /** The operation cannot be replayed as it is now. */
    record NotReplayable(OperationStatus status, String why) implements ReplayStartOutcome {
    }

    /** An acknowledgement names steps the plan does not block. */
    record NotBlocked(List<String> stepKeys) implements ReplayStartOutcome {
    }

    record NotFound() implements ReplayStartOutcome {
    }

    record CheckpointNotFound(UUID checkpointId) implements ReplayStartOutcome {
    }
}

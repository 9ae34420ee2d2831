package dev.opledger.graph;

import dev.opledger.claim.AttemptRecord;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.TransitionRecord;
import dev.opledger.effect.RecordedEffect;
import java.time.Instant;

/** One event in an operation's timeline, at the time it happened. */
public sealed interface TimelineEntry {

    Instant at();

    /** An accepted attempt: the claim, or a replay of it. */
    record Attempt(AttemptRecord attempt) implements TimelineEntry {
        @Override
        public Instant at() {
            return attempt.receivedAt();
        }
    }

    /** A status change, with the node (or person) that made it and why. */
    record StatusChange(TransitionRecord transition) implements TimelineEntry {
        @Override
        public Instant at() {
            return transition.at();
        }
    }

    /** A checkpoint of the operation's graph: which node had run and which runs next. */
    record Checkpoint(CheckpointEntry checkpoint) implements TimelineEntry {
        @Override
        public Instant at() {
            return checkpoint.createdAt();
        }
    }

    /** A step's effect, placed where the step first started; its record tells how it ended. */
    record Effect(RecordedEffect effect) implements TimelineEntry {
        @Override
        public Instant at() {
            return effect.startedAt();
        }
    }

    /** Someone asked to cancel the operation: who, through which channel, why. */
    record CancelRequested(CancelRecord cancel) implements TimelineEntry {
        @Override
        public Instant at() {
            return cancel.requestedAt();
        }
    }

    /**
     * The cancel acknowledged (by a worker at a step boundary, or by the ledger) and resolved: stopped,
     * the in-flight effect committed anyway, or a review. Present once the cancel has a resolution.
     */
    record CancelResolved(CancelRecord cancel) implements TimelineEntry {
        @Override
        public Instant at() {
            Instant resolved = cancel.resolvedAt();
            return resolved == null ? cancel.requestedAt() : resolved;
        }
    }
}

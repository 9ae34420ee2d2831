package dev.opledger.classification;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One double-run probe of a write tool, as recorded.
 *
 * @param sandbox the probe's own directory, in which its path arguments were resolved
 * @param prepare the calls that prepared the sandbox (JSON)
 * @param arguments what both runs were given, paths resolved (JSON)
 * @param first the first run's outcome; null while running or if the probe stopped before it
 * @param second the second run's outcome; null likewise
 * @param secondRun what the second run did, when both runs answered
 * @param suggested the class the probe suggests; null when it shows nothing about a repeat
 * @param explanation why it suggests that, or why nothing
 * @param evidence what the server's read tools showed before, after run one and after run two (JSON)
 * @param wallMillis how long the probe took, preparing and reading included
 */
public record ToolProbe(long id, String server, String tool, Status status, String sandbox, String prepare,
        String arguments, @Nullable Run first, @Nullable Run second, @Nullable SecondRun secondRun,
        @Nullable RepeatClass suggested, @Nullable String explanation, @Nullable String evidence, String requestedBy,
        Instant startedAt, @Nullable Instant finishedAt, @Nullable Long wallMillis, Decision decision,
        @Nullable String decidedBy, @Nullable Instant decidedAt, @Nullable String decisionReason) {

    public enum Status {
        RUNNING,
        DONE,
        /** Left RUNNING by a node that stopped; found by a later probe of the tool. */
        ABANDONED
    }

    /** What the second run did to the observed state. */
    public enum SecondRun {
        /** Answered without an error and changed nothing the read tools show. */
        NO_OP,
        /** The tool refused it, and it changed nothing. */
        FAILED,
        /** The state after it differs from the state after the first run. */
        CHANGED_STATE
    }

    public enum Decision {
        /** There is no suggestion to decide on. */
        NONE,
        OPEN,
        ACCEPTED,
        REJECTED
    }

    /** How one call ended: answered ({@code OK}), refused by the tool ({@code ERROR}), or no answer ({@code UNKNOWN}). */
    public record Run(Outcome outcome, String reply, long millis) {

        public enum Outcome {
            OK,
            ERROR,
            UNKNOWN
        }
    }
}

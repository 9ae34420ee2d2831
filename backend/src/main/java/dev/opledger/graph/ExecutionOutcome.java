package dev.opledger.graph;

/** How an executor's run of an operation ended; the worker turns it into the operation's next status. */
public sealed interface ExecutionOutcome {

    record Succeeded() implements ExecutionOutcome {
    }

    /** The run failed on its own terms (a tool refused, a rejection was undone): that is the operation's outcome. */
    record Failed(String reason) implements ExecutionOutcome {
    }

    /**
     * The run broke down: an exception escaped it. The worker records FAILED as
     * {@code FailureKind.BROKE_DOWN}, told apart from a {@link Failed} run's outcome.
     *
     * @param reason what the ledger keeps: where it broke and the exception's class, no message
     */
    record BrokeDown(String reason) implements ExecutionOutcome {
    }

    /** Stopped where going on could duplicate an effect; a person decides. */
    record NeedsReview(String reason) implements ExecutionOutcome {
    }

    /** Interrupted before an effect that needs approval; the run resumes after the decision. */
    record AwaitingApproval(String reason) implements ExecutionOutcome {
    }

    /** A cancel was requested and the run stopped at a step boundary, before its next effect. */
    record Cancelled(String reason) implements ExecutionOutcome {
    }

    /**
     * The lease was lost to another node: nothing to record, that node goes on.
     *
     * @param refused what stopped the run: the write the database refused, or the heartbeat's finding
     */
    record LeaseLost(String refused) implements ExecutionOutcome {
    }
}

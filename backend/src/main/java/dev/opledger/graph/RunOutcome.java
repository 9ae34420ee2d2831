package dev.opledger.graph;

/** How a run of an operation ended; the worker turns it into the operation's next status. */
public sealed interface RunOutcome {

    record Succeeded() implements RunOutcome {
    }

    record Failed(String reason) implements RunOutcome {
    }

    /** Stopped where going on could duplicate an effect; a person decides. */
    record NeedsReview(String reason) implements RunOutcome {
    }

    /** Interrupted before an effect that needs approval; the run resumes after the decision. */
    record AwaitingApproval(String reason) implements RunOutcome {
    }

    /** The lease was lost to another node: nothing to record, that node goes on. */
    record LeaseLost() implements RunOutcome {
    }
}

package dev.opledger.claim;

/**
 * What asking to cancel an operation came to. It is read from the ledger after the request, so a
 * repeat (a double click, a retried request, a second caller) gets the same answer as the first.
 */
public sealed interface CancelOutcome {

    /** The cancel is recorded and the operation RUNNING: its worker stops at the next step boundary. */
    record Pending(OperationState operation, CancelRecord cancel) implements CancelOutcome {
    }

    /** The cancel is recorded and resolved: {@link CancelRecord#resolution()} says how, the operation's status where it ended. */
    record Resolved(OperationState operation, CancelRecord cancel) implements CancelOutcome {
    }

    /**
     * No cancel was recorded and nothing changed: the operation had ended (SUCCEEDED, FAILED,
     * CANCELLED by nobody's request) or waits for a person's review (NEEDS_REVIEW), which a cancel
     * would hide.
     */
    record AlreadyEnded(OperationState operation) implements CancelOutcome {
    }

    /** There is no such operation, or it is another subject's: nothing changed, nothing is told. */
    record NotFound() implements CancelOutcome {
    }
}

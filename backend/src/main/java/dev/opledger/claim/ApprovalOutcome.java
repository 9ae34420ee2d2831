package dev.opledger.claim;

import dev.opledger.operation.OperationStatus;

/** What a person's approve or reject in the console came to. Only {@link Decided} changed anything. */
public sealed interface ApprovalOutcome {

    /** This decision was recorded; the operation is ACCEPTED again and its graph resumes with it. */
    record Decided(ApprovalDecision decision) implements ApprovalOutcome {
    }

    /** Someone decided first; theirs stands. */
    record AlreadyDecided(ApprovalDecision decision) implements ApprovalOutcome {
    }

    /** The operation is not waiting for approval (it never was, or not yet). */
    record NotAwaitingApproval(OperationStatus status) implements ApprovalOutcome {
    }

    /** No such operation for this subject. */
    record NotFound() implements ApprovalOutcome {
    }
}

package dev.opledger.ui.ledger;

import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.ApprovalOutcome;
import dev.opledger.claim.ApprovalService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.ui.ActionNotification;
import dev.opledger.ui.Formats;
import org.jspecify.annotations.Nullable;

/**
 * One approve or reject from the console: through {@link ApprovalService} (which checks the role
 * and writes the audit entry), then a notification saying what happened, also when someone else
 * decided first or the operation no longer waits.
 */
final class Decision {

    private final ApprovalService approvals;

    Decision(ApprovalService approvals) {
        this.approvals = approvals;
    }

    void decide(SubjectId subject, OperationId operationId, boolean approve, @Nullable String reason) {
        ApprovalOutcome outcome = approve ? approvals.approve(subject, operationId, reason)
                : approvals.reject(subject, operationId, reason == null ? "" : reason);
        ActionNotification.show("decision-notification", message(outcome), outcome instanceof ApprovalOutcome.Decided);
    }

    static String message(ApprovalOutcome outcome) {
        return switch (outcome) {
            case ApprovalOutcome.Decided decided -> decided.decision().approved()
                    ? "Approved: the operation is ACCEPTED again and its run goes on."
                    : "Rejected: the operation is ACCEPTED again; its run undoes what it did and ends FAILED.";
            case ApprovalOutcome.AlreadyDecided already -> "Nothing changed: the operation was already "
                    + decided(already.decision()) + ".";
            case ApprovalOutcome.NotAwaitingApproval notAwaiting -> "Nothing changed: the operation is not awaiting "
                    + "approval (it is " + notAwaiting.status().name() + ").";
            case ApprovalOutcome.NotFound notFound -> "Nothing changed: the operation was not found.";
        };
    }

    /** "approved by support at 2026-… UTC: known customer". */
    private static String decided(ApprovalDecision decision) {
        String text = (decision.approved() ? "approved" : "rejected") + " by " + decision.actor() + " at "
                + Formats.instant(decision.decidedAt());
        return decision.reason() == null ? text : text + ": " + decision.reason();
    }
}

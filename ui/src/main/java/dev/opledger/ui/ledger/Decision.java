package dev.opledger.ui.ledger;

import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;
import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.ApprovalOutcome;
import dev.opledger.claim.ApprovalService;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.ui.Formats;
import org.jspecify.annotations.Nullable;

/**
 * One approve, reject or cancel from the console: through {@link ApprovalService} or
 * {@link CancelService} (which check the role and write the audit entry), then a notification
 * saying what happened, also when someone else decided first or the operation no longer waits.
 */
final class Decision {

    private static final int NOTIFICATION_MILLIS = 8000;

    private final ApprovalService approvals;
    private final CancelService cancels;

    Decision(ApprovalService approvals, CancelService cancels) {
        this.approvals = approvals;
        this.cancels = cancels;
    }

    void cancel(OperationId operationId, @Nullable String reason) {
        CancelOutcome outcome = cancels.cancelAsStaff(operationId, reason);
        notify(message(outcome), outcome instanceof CancelOutcome.Pending || outcome instanceof CancelOutcome.Resolved);
    }

    static String message(CancelOutcome outcome) {
        return switch (outcome) {
            case CancelOutcome.Pending pending -> "Cancel requested: the operation's worker stops at its next step "
                    + "boundary; the timeline shows when it does.";
            case CancelOutcome.Resolved resolved -> "Cancel " + TimelineText.resolution(resolved.cancel())
                    + "; the operation is " + resolved.operation().status().name() + ".";
            case CancelOutcome.AlreadyEnded ended -> "Nothing changed: the operation had ended (it is "
                    + ended.operation().status().name() + ").";
            case CancelOutcome.NotFound notFound -> "Nothing changed: the operation was not found.";
        };
    }

    private static void notify(String message, boolean changed) {
        var notification = Notification.show(message, NOTIFICATION_MILLIS, Notification.Position.TOP_CENTER);
        notification.setId("decision-notification");
        notification.addThemeVariants(changed ? NotificationVariant.SUCCESS : NotificationVariant.WARNING);
    }

    void decide(SubjectId subject, OperationId operationId, boolean approve, @Nullable String reason) {
        ApprovalOutcome outcome = approve ? approvals.approve(subject, operationId, reason)
                : approvals.reject(subject, operationId, reason == null ? "" : reason);
        notify(message(outcome), outcome instanceof ApprovalOutcome.Decided);
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

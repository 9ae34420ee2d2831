package dev.opledger.ui.stuck;

import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelRecord;
import dev.opledger.operation.OperationStatus;
import dev.opledger.stuck.StuckTask;
import dev.opledger.stuck.StuckTaskProperties;
import dev.opledger.ui.Formats;
import dev.opledger.ui.ledger.TimelineText;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** How the Stuck tasks view words a task's holder, its cancel's state and the answer to a cancel. */
final class StuckTaskText {

    private StuckTaskText() {
    }

    /** "node-a", "node-a (lease expired)", or "—" when no worker holds the operation. */
    static String holder(StuckTask task) {
        if (task.leaseHolder() == null) {
            return "—";
        }
        return task.leaseExpired() ? task.leaseHolder() + " (lease expired)" : task.leaseHolder();
    }

    /** "4.2 s (threshold 1.0 s)". */
    static String age(StuckTask task) {
        return Formats.duration(task.age()) + " (threshold " + Formats.duration(task.threshold()) + ")";
    }

    /**
     * The state a cancel has reached, as the ledger keeps it apart: requested, acknowledged, then
     * how it was resolved (stopped, effect committed anyway with the step and tool, needs review,
     * completed; worded as on the operation's timeline). "—" when no cancel was asked for.
     */
    static String state(@Nullable CancelRecord cancel) {
        if (cancel == null) {
            return "—";
        }
        if (cancel.resolution() == null) {
            return cancel.acknowledgedAt() == null ? "requested" : "acknowledged by " + cancel.acknowledgedBy();
        }
        return TimelineText.resolution(cancel);
    }

    /** Who asked, and when: "console:support at 2026-… UTC: customer called". */
    static String requested(CancelRecord cancel) {
        String text = cancel.requestedBy() + " at " + Formats.instant(cancel.requestedAt());
        return cancel.reason() == null ? text : text + ": " + cancel.reason();
    }

    /** The answer to a cancel a person asked for, read from the ledger: the same for a repeat. */
    static String answer(CancelOutcome outcome) {
        return switch (outcome) {
            case CancelOutcome.Pending pending -> "Cancel requested: the run stops at its next step boundary; "
                    + "the state below moves on when it does.";
            case CancelOutcome.Resolved resolved -> "Cancel " + state(resolved.cancel()) + "; the operation is "
                    + resolved.operation().status().name() + ".";
            case CancelOutcome.AlreadyEnded ended -> ended.operation().status() == OperationStatus.NEEDS_REVIEW
                    ? "Nothing changed: the operation waits for a person's review, which a cancel would hide."
                    : "Nothing changed: the operation had already ended " + ended.operation().status().name() + ".";
            case CancelOutcome.NotFound notFound -> "Nothing changed: the operation was not found.";
        };
    }

    /** "5 min by default; capture_payment 30 s, checkout 15 min". */
    static String thresholds(StuckTaskProperties thresholds) {
        String text = Formats.duration(thresholds.threshold()) + " by default";
        if (thresholds.tools().isEmpty()) {
            return text;
        }
        return text + "; " + new TreeMap<>(thresholds.tools()).entrySet().stream()
                .map(tool -> tool.getKey() + " " + Formats.duration(tool.getValue()))
                .collect(Collectors.joining(", "));
    }
}

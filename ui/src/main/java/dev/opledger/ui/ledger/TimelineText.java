package dev.opledger.ui.ledger;

import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.CancelResolution;
import dev.opledger.claim.TransitionRecord;
import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.RecordedEffect;
import dev.opledger.graph.CheckpointEntry;
import dev.opledger.graph.TimelineEntry;
import dev.opledger.ui.Formats;
import java.util.Locale;

/** How the timeline words each entry: what kind of event, what happened, and the particulars. */
public final class TimelineText {

    private TimelineText() {
    }

    static String kind(TimelineEntry entry) {
        return switch (entry) {
            case TimelineEntry.Attempt attempt -> "Attempt";
            case TimelineEntry.StatusChange change -> "Status";
            case TimelineEntry.Checkpoint checkpoint -> "Checkpoint";
            case TimelineEntry.Effect effect -> "Effect";
            case TimelineEntry.CancelRequested cancel -> "Cancel";
            case TimelineEntry.CancelResolved cancel -> "Cancel";
        };
    }

    /** "CLAIMED"; "RUNNING → SUCCEEDED"; "reserve → capture"; "reserve: reserve_inventory (keyed)". */
    static String what(TimelineEntry entry) {
        return switch (entry) {
            case TimelineEntry.Attempt attempt -> attempt.attempt().outcome();
            case TimelineEntry.StatusChange change -> (change.transition().from() == null ? "—"
                    : change.transition().from().name()) + " → " + change.transition().to().name();
            case TimelineEntry.Checkpoint checkpoint -> checkpoint.checkpoint().nodeId() + " → "
                    + checkpoint.checkpoint().nextNodeId();
            case TimelineEntry.Effect effect -> effect.effect().stepKey() + ": " + effect.effect().tool() + " ("
                    + repeatClass(effect.effect().repeatClass()) + ")";
            case TimelineEntry.CancelRequested cancel -> "requested";
            case TimelineEntry.CancelResolved cancel -> resolution(cancel.cancel());
        };
    }

    static String details(TimelineEntry entry) {
        return switch (entry) {
            case TimelineEntry.Attempt attempt -> "request " + attempt.attempt().requestId();
            case TimelineEntry.StatusChange change -> transition(change.transition());
            case TimelineEntry.Checkpoint checkpoint -> "checkpoint #" + checkpoint.checkpoint().seq();
            case TimelineEntry.Effect effect -> outcome(effect.effect());
            case TimelineEntry.CancelRequested cancel -> "by " + cancel.cancel().requestedBy() + " ("
                    + cancel.cancel().channel() + ")" + (cancel.cancel().reason() == null ? ""
                    : ": " + cancel.cancel().reason());
            case TimelineEntry.CancelResolved cancel -> "acknowledged by " + Formats.orDash(cancel.cancel().acknowledgedBy())
                    + (cancel.cancel().acknowledgedAt() == null ? "" : " at " + Formats.instant(cancel.cancel().acknowledgedAt()));
        };
    }

    /** "stopped: no effect after the request"; "effect committed anyway: capture (capture_payment)"; … */
    public static String resolution(CancelRecord cancel) {
        CancelResolution resolution = cancel.resolution();
        String effect = cancel.step() == null ? "" : ": " + cancel.step() + " (" + Formats.orDash(cancel.tool()) + ")";
        if (resolution == null) {
            return "requested, waiting for the worker's next step boundary";
        }
        return switch (resolution) {
            case STOPPED -> "stopped: no effect after the request";
            case EFFECT_COMMITTED_ANYWAY -> "effect committed anyway" + effect;
            case NEEDS_REVIEW -> "needs review: outcome unknown" + effect;
            case COMPLETED -> "completed: the last effect was made before the request was seen";
        };
    }

    /** "by node-1: taken over…", or "by console:support: approved by support". */
    static String transition(TransitionRecord transition) {
        String by = "by " + Formats.orDash(transition.nodeId());
        return transition.reason() == null ? by : by + ": " + transition.reason();
    }

    /** "SUCCEEDED after 1 call, finished …"; "FAILED after 1 call: card declined"; "STARTED (outcome unknown) …". */
    static String outcome(RecordedEffect effect) {
        var text = new StringBuilder(effect.status().name());
        if (effect.finishedAt() == null) {
            text.append(" (outcome unknown)");
        }
        text.append(" after ").append(effect.calls()).append(effect.calls() == 1 ? " call" : " calls");
        if (effect.finishedAt() != null) {
            text.append(", finished ").append(Formats.instant(effect.finishedAt()));
        }
        if (effect.error() != null) {
            text.append(": ").append(effect.error());
        }
        return text.toString();
    }

    /** As the issue and the docs name the classes: keyed, check-then-write, never-repeat, idempotent. */
    /** A checkpoint's state without its values: "amount, payment, reservation, sku · 412 bytes". */
    static String stateSummary(CheckpointEntry checkpoint) {
        String keys = checkpoint.stateKeys().isEmpty() ? "(empty)" : String.join(", ", checkpoint.stateKeys());
        return keys + " · " + checkpoint.stateBytes() + (checkpoint.stateBytes() == 1 ? " byte" : " bytes");
    }

    static String repeatClass(RepeatClass repeatClass) {
        return repeatClass.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

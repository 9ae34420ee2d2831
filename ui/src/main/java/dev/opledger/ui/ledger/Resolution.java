package dev.opledger.ui.ledger;

import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.EffectReview;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.review.ReviewOutcome;
import dev.opledger.review.ReviewService;
import dev.opledger.ui.ActionNotification;
import dev.opledger.ui.Formats;

/**
 * One resolution of an unknown outcome from the console: through {@link ReviewService} (which
 * checks the role and writes the audit entry), then a notification saying what happened, also
 * when someone else resolved it first or the operation is no longer in review.
 */
final class Resolution {

    private final ReviewService reviews;

    Resolution(ReviewService reviews) {
        this.reviews = reviews;
    }

    void resolve(SubjectId subject, OperationId operationId, UnknownEffect effect, EffectResolution resolution,
            String note) {
        ReviewOutcome outcome = reviews.resolve(subject, operationId, effect.stepKey(), effect.startedAt(), resolution,
                note);
        ActionNotification.show("resolution-notification", message(outcome), outcome instanceof ReviewOutcome.Resolved);
    }

    static String message(ReviewOutcome outcome) {
        return switch (outcome) {
            case ReviewOutcome.Resolved resolved -> switch (resolved.review().resolution()) {
                case LANDED -> "Resolved: " + call(resolved.review()) + " landed. The operation is ACCEPTED again and "
                        + "goes on without calling it.";
                case NOT_LANDED -> "Resolved: " + call(resolved.review()) + " did not land. The operation is ACCEPTED "
                        + "again and calls it once more.";
                case GIVEN_UP -> "Given up: the operation is ACCEPTED again; its run ends step "
                        + resolved.review().stepKey() + " FAILED with your reason, after the compensations its "
                        + "graph defines (a checkout refunds a captured payment and releases its reservation).";
            };
            case ReviewOutcome.AlreadyResolved already -> "Nothing changed: " + call(already.review())
                    + " was already resolved by " + already.review().actor() + " at "
                    + Formats.instant(already.review().decidedAt()) + " (" + found(already.review().resolution())
                    + "): " + already.review().note();
            case ReviewOutcome.NotInReview notInReview -> "Nothing changed: the operation is not in review (it is "
                    + notInReview.status().name() + ").";
            case ReviewOutcome.NotTheUnknownEffect changed -> changed.unknown() == null
                    ? "Nothing changed: no call of this operation has an unknown outcome any more."
                    : "Nothing changed: the call shown is no longer the one whose outcome is unknown; the page now "
                            + "shows the current one.";
            case ReviewOutcome.NotFound notFound -> "Nothing changed: the operation was not found.";
            case ReviewOutcome.InvalidNote invalid -> "Nothing changed: " + invalid.problem() + ".";
        };
    }

    private static String call(EffectReview review) {
        return "the call of " + review.tool() + " for step " + review.stepKey();
    }

    private static String found(EffectResolution resolution) {
        return switch (resolution) {
            case LANDED -> "it landed";
            case NOT_LANDED -> "it did not land";
            case GIVEN_UP -> "given up";
        };
    }
}

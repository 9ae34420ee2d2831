package dev.opledger.review;

import dev.opledger.effect.EffectReview;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.operation.OperationStatus;
import org.jspecify.annotations.Nullable;

/** What a person's resolution of an unknown outcome came to. Only {@link Resolved} changed anything. */
public sealed interface ReviewOutcome {

    /** This resolution was recorded; the operation is ACCEPTED again and its run goes on from the step. */
    record Resolved(EffectReview review) implements ReviewOutcome {
    }

    /** Someone resolved this call first (or the same person, twice); theirs stands. */
    record AlreadyResolved(EffectReview review) implements ReviewOutcome {
    }

    /** The operation is not in NEEDS_REVIEW (any more, or not yet), and no one resolved this call. */
    record NotInReview(OperationStatus status) implements ReviewOutcome {
    }

    /**
     * The operation is in review, but the call named is not the one whose outcome is unknown (it
     * parked again since the page was read, or it waits for another reason).
     *
     * @param unknown the call whose outcome is unknown now; null when none is (the review is about
     *     something else, such as arguments that differ from the recorded ones)
     */
    record NotTheUnknownEffect(@Nullable UnknownEffect unknown) implements ReviewOutcome {
    }

    /** No such operation for this subject. */
    record NotFound() implements ReviewOutcome {
    }

    /** The note (or reason) is missing or too long; nothing changed. */
    record InvalidNote(String problem) implements ReviewOutcome {
    }
}

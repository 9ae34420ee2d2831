package dev.opledger.ui.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.EffectReview;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.review.ReviewOutcome;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ResolutionTest {

    private static final Instant AT = Instant.parse("2026-11-30T12:34:56.789Z");
    private static final OperationId OPERATION = OperationId.random();

    private static EffectReview review(EffectResolution resolution, String actor, String note) {
        return new EffectReview(OPERATION, "receipt", "send_message", AT.minusSeconds(60), resolution, actor, note, AT);
    }

    @Test
    void saysWhatEachResolutionMakesTheRunDo() {
        assertThat(Resolution.message(new ReviewOutcome.Resolved(review(EffectResolution.LANDED, "support", "in inbox"))))
                .isEqualTo("Resolved: the call of send_message for step receipt landed. The operation is ACCEPTED "
                        + "again and goes on without calling it.");
        assertThat(Resolution.message(new ReviewOutcome.Resolved(review(EffectResolution.NOT_LANDED, "support", "no"))))
                .isEqualTo("Resolved: the call of send_message for step receipt did not land. The operation is "
                        + "ACCEPTED again and calls it once more.");
        assertThat(Resolution.message(new ReviewOutcome.Resolved(review(EffectResolution.GIVEN_UP, "support", "why"))))
                .isEqualTo("Given up: the operation is ACCEPTED again; its run ends step receipt FAILED with your reason, "
                        + "after the compensations its graph defines (a checkout refunds a captured payment and "
                        + "releases its reservation).");
    }

    @Test
    void aLateResolutionSaysWhoResolvedFirstWhenWhatAndWhy() {
        assertThat(Resolution.message(new ReviewOutcome.AlreadyResolved(
                review(EffectResolution.NOT_LANDED, "other-support", "nothing in the provider's log"))))
                .isEqualTo("Nothing changed: the call of send_message for step receipt was already resolved by "
                        + "other-support at 2026-11-30 12:34:56.789 UTC (it did not land): nothing in the provider's log");
    }

    @Test
    void aRefusalSaysWhy() {
        assertThat(Resolution.message(new ReviewOutcome.NotInReview(OperationStatus.SUCCEEDED)))
                .isEqualTo("Nothing changed: the operation is not in review (it is SUCCEEDED).");
        assertThat(Resolution.message(new ReviewOutcome.NotTheUnknownEffect(null)))
                .isEqualTo("Nothing changed: no call of this operation has an unknown outcome any more.");
        assertThat(Resolution.message(new ReviewOutcome.NotTheUnknownEffect(new UnknownEffect("receipt", "shop",
                "send_message", RepeatClass.NEVER_REPEAT, null, 1, AT))))
                .startsWith("Nothing changed: the call shown is no longer the one");
        assertThat(Resolution.message(new ReviewOutcome.InvalidNote("say what you found downstream")))
                .isEqualTo("Nothing changed: say what you found downstream.");
    }
}

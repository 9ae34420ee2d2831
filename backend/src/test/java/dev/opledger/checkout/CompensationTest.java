package dev.opledger.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.StepResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a failed effect becomes the compensations' input, and how their own failures are told. */
class CompensationTest {

    @Test
    void aFailedReservationEndsTheRunAtOnce() {
        assertThat(CheckoutEffects.failedAt(CheckoutStep.RESERVE, "reserve: refused"))
                .isEqualTo(StepResult.stop(new ExecutionOutcome.Failed("reserve: refused")));
    }

    @Test
    void aStepFailingAfterTheReservationWritesTheFailureAndGoesOn() {
        for (CheckoutStep step : new CheckoutStep[] {CheckoutStep.CAPTURE, CheckoutStep.POINTS, CheckoutStep.SHIPPING,
                CheckoutStep.WRAP, CheckoutStep.RECEIPT}) {
            assertThat(CheckoutEffects.failedAt(step, "why")).as(step.key()).isEqualTo(StepResult.next(
                    Map.of("failure", Map.of("step", step.key(), "reason", "why"))));
        }
    }

    @Test
    void aFailedCompensationRecordsWhyAsItsOwnResult() {
        assertThat(CheckoutEffects.failedAt(CheckoutStep.REFUND, "refund: refused"))
                .isEqualTo(StepResult.next(Map.of("refund", Map.of("failed", "refund: refused"))));
        assertThat(CheckoutEffects.failedAt(CheckoutStep.RELEASE, "release: refused"))
                .isEqualTo(StepResult.next(Map.of("release", Map.of("failed", "release: refused"))));
    }

    @Test
    void theOutcomeNamesTheCompensationsThatFailedAndNothingWhenTheyDidTheirPart() {
        assertThat(CheckoutOperation.compensationFailures(new CheckoutState(Map.of(
                "refund", Map.of("refundId", "f-1"), "release", Map.of("releaseId", "l-1"))))).isEmpty();
        assertThat(CheckoutOperation.compensationFailures(new CheckoutState(Map.of(
                "refund", Map.of("failed", "refund: refund_payment refused: x"),
                "release", Map.of("failed", "release: release_inventory refused: y")))))
                .isEqualTo("; the refund failed too (refund: refund_payment refused: x)"
                        + "; the release failed too (release: release_inventory refused: y)");
    }
}

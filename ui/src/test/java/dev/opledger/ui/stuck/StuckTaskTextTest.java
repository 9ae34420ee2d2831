package dev.opledger.ui.stuck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.CancelResolution;
import dev.opledger.claim.OperationState;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import dev.opledger.stuck.StuckTask;
import dev.opledger.stuck.StuckTaskProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class StuckTaskTextTest {

    private static final Instant AT = Instant.parse("2026-12-01T12:00:00Z");

    @Test
    void eachCancelStateIsToldApartAndAResolvedOneIsWordedAsOnTheTimeline() {
        assertThat(StuckTaskText.state(null)).isEqualTo("—");
        assertThat(StuckTaskText.state(cancel(null, null, null, null))).isEqualTo("requested");
        assertThat(StuckTaskText.state(cancel("node-a", null, null, null))).isEqualTo("acknowledged by node-a");
        assertThat(StuckTaskText.state(cancel("node-a", CancelResolution.STOPPED, null, null))).isEqualTo("stopped: no effect after the request");
        assertThat(StuckTaskText.state(cancel("node-a", CancelResolution.EFFECT_COMMITTED_ANYWAY, "capture",
                "capture_payment"))).isEqualTo("effect committed anyway: capture (capture_payment)");
        assertThat(StuckTaskText.state(cancel("node-a", CancelResolution.NEEDS_REVIEW, "receipt", "send_message")))
                .isEqualTo("needs review: outcome unknown: receipt (send_message)");
        assertThat(StuckTaskText.state(cancel("node-a", CancelResolution.COMPLETED, null, null)))
                .startsWith("completed");
    }

    @Test
    void theAnswerToACancelSaysWhetherItChangedAnything() {
        var requested = cancel(null, null, null, null);

        assertThat(StuckTaskText.answer(new CancelOutcome.Pending(operation(OperationStatus.RUNNING), requested)))
                .startsWith("Cancel requested: the run stops at its next step boundary");
        assertThat(StuckTaskText.answer(new CancelOutcome.Resolved(operation(OperationStatus.CANCELLED),
                cancel("ledger", CancelResolution.STOPPED, null, null))))
                .isEqualTo("Cancel stopped: no effect after the request; the operation is CANCELLED.");
        assertThat(StuckTaskText.answer(new CancelOutcome.AlreadyEnded(operation(OperationStatus.SUCCEEDED))))
                .isEqualTo("Nothing changed: the operation had already ended SUCCEEDED.");
        assertThat(StuckTaskText.answer(new CancelOutcome.AlreadyEnded(operation(OperationStatus.NEEDS_REVIEW))))
                .contains("waits for a person's review");
        assertThat(StuckTaskText.answer(new CancelOutcome.NotFound())).contains("not found");
    }

    @Test
    void theHolderSaysWhenItsLeaseRanOut() {
        assertThat(StuckTaskText.holder(task("node-a", false))).isEqualTo("node-a");
        assertThat(StuckTaskText.holder(task("node-a", true))).isEqualTo("node-a (lease expired)");
        assertThat(StuckTaskText.holder(task(null, false))).isEqualTo("—");
        assertThat(StuckTaskText.age(task(null, false))).isEqualTo("1 min 30 s (threshold 1 min)");
    }

    @Test
    void theThresholdsNameTheDefaultAndEachToolInOrder() {
        assertThat(StuckTaskText.thresholds(new StuckTaskProperties(Duration.ofMinutes(5), Map.of())))
                .isEqualTo("5 min by default");
        assertThat(StuckTaskText.thresholds(new StuckTaskProperties(Duration.ofMinutes(5),
                Map.of("send_message", Duration.ofMinutes(10), "capture_payment", Duration.ofSeconds(30)))))
                .isEqualTo("5 min by default; capture_payment 30.0 s, send_message 10 min");
    }

    private static CancelRecord cancel(@Nullable String acknowledgedBy, @Nullable CancelResolution resolution,
            @Nullable String step, @Nullable String tool) {
        return new CancelRecord("console:support", CancelChannel.CONSOLE, null, AT,
                acknowledgedBy == null ? null : AT.plusSeconds(1), acknowledgedBy, resolution, step, tool,
                resolution == null ? null : AT.plusSeconds(1));
    }

    private static OperationState operation(OperationStatus status) {
        return new OperationState(new SubjectId("s"), OperationId.random(), "checkout", status, new PayloadHash(new byte[32]), AT, AT,
                null);
    }

    private static StuckTask task(@Nullable String holder, boolean expired) {
        return new StuckTask(StuckTask.Direction.OUTBOUND, OperationId.random(), new SubjectId("s"), "checkout",
                "capture_payment", "shop/capture_payment@capture", AT, Duration.ofSeconds(90), Duration.ofMinutes(1),
                OperationStatus.RUNNING, AT, holder, expired, null);
    }
}

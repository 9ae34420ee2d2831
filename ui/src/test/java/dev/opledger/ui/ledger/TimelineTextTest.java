package dev.opledger.ui.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.AttemptRecord;
import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.CancelResolution;
import dev.opledger.claim.TransitionRecord;
import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.EffectStatus;
import dev.opledger.effect.RecordedEffect;
import dev.opledger.graph.CheckpointEntry;
import dev.opledger.graph.TimelineEntry;
import dev.opledger.operation.OperationStatus;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TimelineTextTest {

    private static final Instant STARTED = Instant.parse("2026-11-30T12:34:56.789Z");
    private static final Instant FINISHED = Instant.parse("2026-11-30T12:34:57Z");

    @Test
    void anAttemptShowsItsOutcomeAndRequest() {
        var requestId = UUID.fromString("8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c");
        var attempt = new TimelineEntry.Attempt(new AttemptRecord("CLAIMED", STARTED, requestId, null, null, null, null));

        assertThat(TimelineText.kind(attempt)).isEqualTo("Attempt");
        assertThat(TimelineText.what(attempt)).isEqualTo("CLAIMED");
        assertThat(TimelineText.details(attempt)).isEqualTo("request " + requestId);
    }

    @Test
    void aStatusChangeShowsFromToWhoAndWhy() {
        var change = new TimelineEntry.StatusChange(new TransitionRecord(OperationStatus.AWAITING_APPROVAL,
                OperationStatus.ACCEPTED, STARTED, "console:support", "approved by support: known customer"));

        assertThat(TimelineText.what(change)).isEqualTo("AWAITING_APPROVAL → ACCEPTED");
        assertThat(TimelineText.details(change)).isEqualTo("by console:support: approved by support: known customer");
    }

    @Test
    void aStatusChangeWithoutPreviousStatusNodeOrReasonShowsDashes() {
        var change = new TimelineEntry.StatusChange(new TransitionRecord(null, OperationStatus.ACCEPTED, STARTED, null,
                null));

        assertThat(TimelineText.what(change)).isEqualTo("— → ACCEPTED");
        assertThat(TimelineText.details(change)).isEqualTo("by —");
    }

    @Test
    void aCheckpointShowsTheNodeThatRanAndTheNextOne() {
        var checkpoint = new TimelineEntry.Checkpoint(new CheckpointEntry(3, UUID.randomUUID(), null, "reserve",
                "approval", STARTED));

        assertThat(TimelineText.kind(checkpoint)).isEqualTo("Checkpoint");
        assertThat(TimelineText.what(checkpoint)).isEqualTo("reserve → approval");
        assertThat(TimelineText.details(checkpoint)).isEqualTo("checkpoint #3");
    }

    @Test
    void aSucceededEffectShowsStepToolClassCallsAndWhenItFinished() {
        var effect = new TimelineEntry.Effect(new RecordedEffect("reserve", "reference", "reserve_inventory",
                RepeatClass.KEYED, EffectStatus.SUCCEEDED, "op:reserve", 2, STARTED, FINISHED, "{}", null));

        assertThat(TimelineText.what(effect)).isEqualTo("reserve: reserve_inventory (keyed)");
        assertThat(TimelineText.details(effect)).isEqualTo("SUCCEEDED after 2 calls, finished 2026-11-30 12:34:57.000 UTC");
    }

    @Test
    void aFailedEffectShowsTheToolsError() {
        var effect = new RecordedEffect("capture", "reference", "capture_payment", RepeatClass.KEYED,
                EffectStatus.FAILED, "op:capture", 1, STARTED, FINISHED, null, "card declined");

        assertThat(TimelineText.outcome(effect))
                .isEqualTo("FAILED after 1 call, finished 2026-11-30 12:34:57.000 UTC: card declined");
    }

    @Test
    void aStartedEffectSaysItsOutcomeIsUnknown() {
        var effect = new RecordedEffect("receipt", "reference", "send_message", RepeatClass.NEVER_REPEAT,
                EffectStatus.STARTED, null, 1, STARTED, null, null, null);

        assertThat(TimelineText.outcome(effect)).isEqualTo("STARTED (outcome unknown) after 1 call");
        assertThat(TimelineText.repeatClass(RepeatClass.CHECK_THEN_WRITE)).isEqualTo("check-then-write");
        assertThat(TimelineText.repeatClass(RepeatClass.NEVER_REPEAT)).isEqualTo("never-repeat");
    }

    @Test
    void aCancelShowsWhoAskedAndThenHowItWasResolvedNamingTheEffectThatLandedAnyway() {
        var pending = new CancelRecord("console:support", CancelChannel.CONSOLE, "customer called", STARTED, null, null,
                null, null, null, null);
        var committed = new CancelRecord("subject:ann", CancelChannel.REST, null, STARTED, FINISHED, "node-1",
                CancelResolution.EFFECT_COMMITTED_ANYWAY, "capture", "capture_payment", FINISHED);

        assertThat(TimelineText.kind(new TimelineEntry.CancelRequested(pending))).isEqualTo("Cancel");
        assertThat(TimelineText.details(new TimelineEntry.CancelRequested(pending)))
                .isEqualTo("by console:support (CONSOLE): customer called");
        assertThat(TimelineText.resolution(pending)).isEqualTo("requested, waiting for the worker's next step boundary");
        var resolved = new TimelineEntry.CancelResolved(committed);
        assertThat(resolved.at()).isEqualTo(FINISHED);
        assertThat(TimelineText.what(resolved)).isEqualTo("effect committed anyway: capture (capture_payment)");
        assertThat(TimelineText.details(resolved)).isEqualTo("acknowledged by node-1 at 2026-11-30 12:34:57.000 UTC");
    }
}

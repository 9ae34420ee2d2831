package dev.opledger.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.EffectStatus;
import dev.opledger.effect.RecordedCall;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The dry run's rule, for every repeat class and record status (docs/replay.md). */
class ReplayPlanningTest {

    @ParameterizedTest(name = "{0} {1} {2} → {3}")
    @CsvSource(nullValues = "-", value = {
            // landed: served from the record whatever the class
            "IDEMPOTENT,       SUCCEEDED, -,        SERVED",
            "KEYED,            SUCCEEDED, -,        SERVED",
            "CHECK_THEN_WRITE, SUCCEEDED, -,        SERVED",
            "NEVER_REPEAT,     SUCCEEDED, -,        SERVED",
            "NEVER_REPEAT,     SUCCEEDED, LANDED,   SERVED",
            // the tool refused: no effect, a first call for every class
            "KEYED,            FAILED,    -,        CALLED",
            "NEVER_REPEAT,     FAILED,    -,        CALLED",
            // outcome unknown: as the class allows
            "IDEMPOTENT,       STARTED,   -,        CALLED",
            "READ,             STARTED,   -,        CALLED",
            "KEYED,            STARTED,   -,        CALLED",
            "CHECK_THEN_WRITE, STARTED,   -,        CALLED",
            "NEVER_REPEAT,     STARTED,   -,        BLOCKED",
            // a person gave it up: whether it landed is not known
            "IDEMPOTENT,       FAILED,    GIVEN_UP, BLOCKED",
            "NEVER_REPEAT,     FAILED,    GIVEN_UP, BLOCKED"})
    void eachRecordIsPlannedAsItsClassAndStatusAllow(RepeatClass repeatClass, EffectStatus status,
            @Nullable String resolution, ReplayAction expected) {
        var call = new RecordedCall("step", "shop", "tool", repeatClass, status, "0".repeat(64), 1, resolution,
                Instant.now());

        PlannedEffect planned = ReplayService.planned(call);

        assertThat(planned.action()).isEqualTo(expected);
        assertThat(planned.why()).isNotBlank();
        if (expected == ReplayAction.SERVED) {
            assertThat(planned.why()).contains(repeatClass == RepeatClass.IDEMPOTENT || repeatClass == RepeatClass.READ
                    ? "called with them" : "BLOCKED");
        }
        if (status == EffectStatus.STARTED && repeatClass == RepeatClass.KEYED) {
            assertThat(planned.why()).contains("same idempotency key");
        }
        if (status == EffectStatus.STARTED && repeatClass == RepeatClass.CHECK_THEN_WRITE) {
            assertThat(planned.why()).contains("check runs first");
        }
    }
}

package dev.opledger.effect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StepKeyTest {

    @Test
    void aFixedStepsKeyIsItsNameAndALoopsRunsCarryTheirOrdinal() {
        assertThat(StepKey.fixed("capture").value()).isEqualTo("capture");
        assertThat(StepKey.nth("act", 3).value()).isEqualTo("act#3");
        assertThat(StepKey.parse("act#3")).isEqualTo(StepKey.nth("act", 3));
        assertThat(StepKey.parse("ship-to")).isEqualTo(StepKey.fixed("ship-to"));
    }

    @Test
    void keysThatCouldBeReadTwoWaysAreRefused() {
        assertThatThrownBy(() -> StepKey.nth("act", 0)).hasMessageContaining("first ordinal is 1");
        assertThatThrownBy(() -> StepKey.fixed("a#b")).hasMessageContaining("no '#'");
        assertThatThrownBy(() -> StepKey.parse("act#0")).hasMessageContaining("an ordinal, 1 or more");
        assertThatThrownBy(() -> StepKey.parse("act#01")).hasMessageContaining("an ordinal, 1 or more");
        assertThatThrownBy(() -> StepKey.parse("act#")).hasMessageContaining("an ordinal, 1 or more");
        assertThatThrownBy(() -> StepKey.fixed(" ")).hasMessageContaining("not blank");
    }
}

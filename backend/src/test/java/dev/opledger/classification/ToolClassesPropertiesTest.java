package dev.opledger.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.classification.ToolClassesProperties.Configured;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A configured class that cannot work stops the node at start, saying which setting is wrong. */
class ToolClassesPropertiesTest {

    @Test
    void aCheckThenWriteToolNeedsItsCheckTool() {
        assertThatThrownBy(() -> new Configured(RepeatClass.CHECK_THEN_WRITE, null, null, null, "applied", null, null,
                null, null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("check-tool is required");
    }

    @Test
    void onlyACheckThenWriteToolHasACheckTool() {
        assertThatThrownBy(() -> new Configured(RepeatClass.KEYED, "get_points", null, null, null, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(repeat-class keyed)");
    }

    @Test
    void aRetryPolicyNeedsOneCallAtLeast() {
        assertThatThrownBy(() -> new Configured(RepeatClass.IDEMPOTENT, null, null, null, null, null, 0, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }

    @Test
    void aCompleteSettingGivesTheCheckAndThePolicy() {
        var setting = new Configured(RepeatClass.CHECK_THEN_WRITE, "get_points", "reason", List.of("account"), "applied",
                List.of("balance"), 2, Duration.ofMillis(50), Duration.ofSeconds(1));

        assertThat(setting.check()).isEqualTo(new LandedCheck("get_points", List.of("account"), "applied", List.of("balance")));
        assertThat(setting.check().derivable()).isTrue();
        assertThat(setting.retry()).isEqualTo(new RetryPolicy(2, Duration.ofMillis(50), Duration.ofSeconds(1)));
    }
}

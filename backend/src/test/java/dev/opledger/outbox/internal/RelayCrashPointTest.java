package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The relay's crash point is armed only by its own value of {@code opledger.test.crash-at}; the
 * halt itself is proven by the e2e RelayNodeDeathIT, on a child JVM.
 */
class RelayCrashPointTest {

    @Test
    void noSettingAndTheWorkersPointsLeaveTheRelayAlone() {
        assertThat(RelayCrashPoint.of("")).isNull();
        assertThat(RelayCrashPoint.of("after-tool-commit@reserve")).isNull();
    }

    @Test
    void theRelaysPointIsArmedWithItsCount() {
        assertThat(RelayCrashPoint.of("Relay-After-Kafka-Commit@300")).isNotNull();
    }

    @Test
    void aCountThatIsNotANumberIsRefusedWithTheSetting() {
        assertThatThrownBy(() -> RelayCrashPoint.of("relay-after-kafka-commit@soon"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("opledger.test.crash-at=relay-after-kafka-commit@<n>");
    }
}

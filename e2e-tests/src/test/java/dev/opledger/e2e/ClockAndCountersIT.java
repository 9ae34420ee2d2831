package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The short version of {@link ClockProof} for CI: three rounds of each case, on the class's node
 * (workers off, challenges that live 2 s). {@link AttestedPathIT} already covers a resent
 * assertion, a lower counter, and a challenge expired by rewriting its row; this adds the repeated
 * counter from a restored key, the counter that jumps ahead, a challenge expired by the clock,
 * per-key counters, and the races of two devices of one subject and of one device with itself.
 */
@ExtendWith(NodeExtension.class)
@NodeArguments({"--opledger.worker.enabled=false", "--opledger.reference-tools.embedded=false",
        "--opledger.attest.challenge-ttl=2s"})
class ClockAndCountersIT {

    private static final int ROUNDS = 3;

    private final List<String> figures = new ArrayList<>();
    private ClockAndCounters clock;

    @BeforeEach
    void onTheNode(RunningNode node) {
        clock = new ClockAndCounters(node, TestDatabase.shared(), java.time.Duration.ofSeconds(2),
                (scenario, figure, value, expected, holds) -> figures.add(figure + " = " + value));
    }

    @Test
    void repeatedLowerAndAheadCountersAreAnsweredAsTheProtocolSays() throws Exception {
        clock.counters(ROUNDS);

        assertThat(clock.failures()).as(String.join("\n", figures)).isEmpty();
    }

    @Test
    void aChallengeUsedAfterItsExpiryIsRefusedAndChangesNothing() throws Exception {
        clock.challengeExpiry(ROUNDS);

        assertThat(clock.failures()).as(String.join("\n", figures)).isEmpty();
    }

    @Test
    void twoDevicesOfOneSubjectRacingConvergeOnOneOperationPerOperationId() throws Exception {
        clock.twoDevices(ROUNDS);

        assertThat(clock.failures()).as(String.join("\n", figures)).isEmpty();
    }

    @Test
    void oneDeviceRacingItselfConvergesAfterTheAppsRetry() throws Exception {
        clock.oneDeviceRacingItself(ROUNDS);

        assertThat(clock.failures()).as(String.join("\n", figures)).isEmpty();
    }
}

package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.TestDatabase;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Clock and counters ({@link ClockAndCounters}): a node of its own on a fresh database, challenges
 * that live 3 s, and {@code opledger.prove.clock.rounds} rounds (50 here, 500 with {@code
 * ./opledger prove long}) of each race and counter case. Every check is a row of the summary.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class ClockProof {

    private static final String SCENARIO = "clock";
    private static final Duration CHALLENGE_TTL = Duration.ofSeconds(3);

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @Test
    void countersAndChallengeExpiryAreRefusedAndRacesConvergeAsProtocolMdSays() throws Exception {
        int rounds = Integer.getInteger("opledger.prove.clock.rounds", 50);
        System.out.printf("[prove] %s: %d rounds per case, challenge-ttl %s%n", SCENARIO, rounds, CHALLENGE_TTL);
        long started = System.nanoTime();
        var database = TestDatabase.fresh();
        ChildNode node = nodes.start("prove-clock", database, ClockAndCounters.nodeArguments(CHALLENGE_TTL));
        var clock = new ClockAndCounters(node.node(), database, CHALLENGE_TTL, ProofReport::figure);

        clock.counters(rounds);
        clock.challengeExpiry(rounds);
        clock.twoDevices(rounds);
        clock.oneDeviceRacingItself(rounds);

        ProofReport.measured(SCENARIO, "took", ProofReport.seconds(Duration.ofNanos(System.nanoTime() - started)));
        assertThat(clock.failures()).isEmpty();
    }
}

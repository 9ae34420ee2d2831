package dev.opledger.classification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.classification.internal.RegistryNotifications;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.testing.NodeIntegrationTest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Not a test (its name matches neither surefire's nor failsafe's includes, so no build runs it):
 * the cost of the effect gateway's class lookup ({@link ClassificationService#classOf}) per effect,
 * answered from the node's cache and, with the cache distrusted as when the registry's listener is down (as before the cache),
 * read from the database — in one run, on one database, for one tool. Run on demand:
 * {@code ./mvnw -o -B verify -pl backend -am -Dtest=none -Dit.test=ClassLookupBench
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}; it prints
 * {@code class lookup per effect: …}. docs/tools.md has the figures.
 */
@NodeIntegrationTest
class ClassLookupBench {

    private static final Supplier<Optional<ToolHints>> HINTS = () -> Optional.of(new ToolHints(false, true, false, false));
    private static final int ROUNDS = 5;
    private static final int CACHED_CALLS = 200_000;
    private static final int DATABASE_CALLS = 2_000;

    @Autowired
    ClassificationService classification;

    @Autowired
    RegistryNotifications notifications;

    @Test
    void classLookupPerEffectFromTheCacheAndFromTheDatabase() {
        var tool = new ToolRef("bench-" + UUID.randomUUID(), "set_shipping_address");
        await().atMost(Duration.ofSeconds(10)).until(notifications::listening);
        classification.classOf(tool, HINTS); // recorded from its hints, then cached

        double cached = medianNanos(tool, CACHED_CALLS);
        notifications.listening(false); // as when the node's listener is down: every lookup reads the database
        try {
            assertThat(notifications.listening()).isFalse();
            double database = medianNanos(tool, DATABASE_CALLS);
            System.out.printf("class lookup per effect: cache %.0f ns, database %.1f µs (cache distrusted), ratio %.0f×;"
                    + " medians of %d rounds of %d and %d calls%n", cached, database / 1000, database / cached, ROUNDS,
                    CACHED_CALLS, DATABASE_CALLS);
        } finally {
            notifications.listening(true);
        }
    }

    /** One warm-up round, then the median of {@value #ROUNDS} rounds, in nanoseconds per call. */
    private double medianNanos(ToolRef tool, int calls) {
        run(tool, calls);
        double[] rounds = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            long start = System.nanoTime();
            run(tool, calls);
            rounds[round] = (double) (System.nanoTime() - start) / calls;
        }
        Arrays.sort(rounds);
        return rounds[ROUNDS / 2];
    }

    private void run(ToolRef tool, int calls) {
        for (int i = 0; i < calls; i++) {
            if (classification.classOf(tool, HINTS).repeatClass() != RepeatClass.IDEMPOTENT) {
                throw new AssertionError("the class changed during the benchmark");
            }
        }
    }
}

package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two nodes on one database share 200 checkouts; one is killed with SIGKILL midway and the other
 * finishes its work: every checkout succeeds with exactly one effect per step, in the tool
 * server's effect log, which runs as a process of its own.
 */
class TwoNodesIT {

    private static final int CHECKOUTS = 200;
    private static final int KILL_AFTER_SUCCEEDED = 50;
    private static final Duration ALL_DONE = Duration.ofMinutes(2);

    private static ReferenceToolsProcess tools;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @BeforeAll
    static void startTheToolServer() throws Exception {
        // every payment takes a moment, as a real one does: a node always has runs under way when it is killed
        tools = ReferenceToolsProcess.start(TestDatabase.fresh(), "--reference-tools.faults.capture_payment=delay:40");
    }

    @AfterAll
    static void stopTheToolServer() {
        if (tools != null) {
            tools.close();
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void twoHundredCheckoutsEachHappenOnceWhenOneOfTwoNodesIsKilledMidway() throws Exception {
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        // one after the other: started together, the second would wait for the first's Liquibase lock
        ChildNode a = nodes.start("two-a", database, worker());
        ChildNode b = nodes.start("two-b", database, worker());

        Map<String, List<String>> expectedEffects = submitAll(checkouts, b);

        await("some checkouts done while A holds others").atMost(ALL_DONE).pollInterval(Duration.ofMillis(50))
                .until(() -> checkouts.count("SUCCEEDED") >= KILL_AFTER_SUCCEEDED && checkouts.heldBy(a) > 0);
        assertThat(a.kill()).as("A killed with SIGKILL").isEqualTo(137);

        await("all checkouts SUCCEEDED").atMost(ALL_DONE).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(checkouts.count("SUCCEEDED")).isEqualTo(CHECKOUTS));
        assertThat(tools.repeatedEffects()).as("steps with more than one effect").isEmpty();
        assertThat(tools.effectsByOperation()).isEqualTo(expectedEffects);
        assertThat(checkouts.finishedBy(a, "SUCCEEDED")).as("checkouts A finished before it was killed").isPositive();
        assertThat(checkouts.finishedBy(b, "SUCCEEDED")).as("checkouts B finished").isPositive();
        assertThat(checkouts.takenOver(a, b)).as("checkouts B took over from A").isPositive();
    }

    /**
     * Submits the checkouts through B's API, a few at a time; some credit loyalty points (a
     * check-then-write step), some set a shipping address (an idempotent one). Returns the effects
     * each must end with: one per step, sorted as {@link ReferenceToolsProcess#effectsByOperation} sorts them.
     */
    private static Map<String, List<String>> submitAll(Checkouts checkouts, ChildNode node) throws Exception {
        List<Callable<Map.Entry<String, List<String>>>> submissions = IntStream.range(0, CHECKOUTS)
                .<Callable<Map.Entry<String, List<String>>>>mapToObj(i -> () -> {
                    List<String> steps = new ArrayList<>(List.of("reserve reserve_inventory", "capture capture_payment",
                            "receipt send_message"));
                    StringBuilder arguments = new StringBuilder("{\"sku\":\"SKU-GRINDER\",\"quantity\":" + (1 + i % 3)
                            + ",\"amount\":" + (10 + i % 400) + ".50,\"currency\":\"EUR\",\"recipient\":\"buyer-" + i
                            + "@example.com\"");
                    if (i % 2 == 0) {
                        arguments.append(",\"loyaltyAccount\":\"loyal-").append(i % 7).append('"');
                        steps.add("points adjust_points");
                    }
                    if (i % 3 == 0) {
                        arguments.append(",\"shippingAddress\":\"").append(i).append(" Main St\"");
                        steps.add("shipping set_shipping_address");
                    }
                    String operationId = checkouts.submit(node, arguments.append('}').toString());
                    return Map.entry(operationId, steps.stream().sorted().toList());
                }).toList();
        Map<String, List<String>> expected = new TreeMap<>();
        try (var senders = Executors.newFixedThreadPool(4)) {
            for (Future<Map.Entry<String, List<String>>> submitted : senders.invokeAll(submissions)) {
                expected.put(submitted.get().getKey(), submitted.get().getValue());
            }
        }
        return expected;
    }

    /** A worker node with a few runs at once and short leases, calling the class's tool server. */
    private static List<String> worker() {
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.attest.mode=optional",
                "--opledger.worker.concurrency=4",
                "--opledger.worker.lease=3s",
                "--opledger.worker.heartbeat=1s",
                // the PostgreSQL server is shared with other test runs: no more connections than the runs need
                "--spring.datasource.hikari.maximum-pool-size=8"));
        arguments.addAll(tools.nodeArguments());
        return arguments;
    }
}

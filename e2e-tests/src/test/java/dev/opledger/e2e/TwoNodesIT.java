package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * finishes its work, with exactly one effect per step in the tool server's effect log (the server
 * runs as a process of its own). Every checkout succeeds, but one: a checkout whose receipt A was
 * sending when it died. Its outcome is unknown and send_message is never-repeat, so B leaves it in
 * NEEDS_REVIEW (the message went out once or not at all) — what the contract asks, and a matter
 * of timing: the test accepts it for the checkouts B took over from A only.
 */
@LongRunning
class TwoNodesIT {

    private static final int CHECKOUTS = 200;
    private static final int KILL_AFTER_SUCCEEDED = 50;
    private static final Duration ALL_DONE = Duration.ofMinutes(2);
    private static final String RECEIPT = "receipt send_message";

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

        Map<String, List<String>> expectedEffects;
        try (var background = Executors.newVirtualThreadPerTaskExecutor()) {
            // submitted through B while both run them, so A is killed midway however fast either side is
            Future<Map<String, List<String>>> submitting = background.submit(() -> submitAll(checkouts, b));
            await("some checkouts done while A holds others").atMost(ALL_DONE).pollInterval(Duration.ofMillis(50))
                    .until(() -> checkouts.count("SUCCEEDED") >= KILL_AFTER_SUCCEEDED && checkouts.heldBy(a) > 0);
            assertThat(a.kill()).as("A killed with SIGKILL").isEqualTo(137);
            expectedEffects = submitting.get();
        }

        await("every checkout ended").atMost(ALL_DONE).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> assertThat(checkouts.count("SUCCEEDED") + checkouts.count("NEEDS_REVIEW"))
                        .isEqualTo(CHECKOUTS));
        Set<String> takenOver = checkouts.takenOver(a, b);
        Set<String> needReview = checkouts.inStatus("NEEDS_REVIEW");
        assertThat(takenOver).as("checkouts B took over from A").isNotEmpty();
        assertThat(checkouts.finishedBy(a, "SUCCEEDED")).as("checkouts A finished before it was killed").isPositive();
        assertThat(tools.repeatedEffects()).as("steps with more than one effect").isEmpty();
        assertThat(needReview).as("only a receipt whose sending A's death left unknown waits for a person")
                .isSubsetOf(takenOver)
                .allSatisfy(operationId -> {
                    assertThat(checkouts.statusReason(operationId)).contains("send_message").contains("receipt");
                    assertThat(checkouts.effectRecord(operationId, "receipt")).isEqualTo("STARTED");
                });
        Map<String, List<String>> made = tools.effectsByOperation();
        expectedEffects.forEach((operationId, steps) -> {
            List<String> effects = made.getOrDefault(operationId, List.of());
            if (needReview.contains(operationId)) {
                // the message went out once or not at all; every other step once
                assertThat(effects).as(operationId).isSubsetOf(steps)
                        .containsAll(steps.stream().filter(step -> !step.equals(RECEIPT)).toList());
            } else {
                assertThat(effects).as(operationId).isEqualTo(steps);
            }
        });
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
                            RECEIPT));
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

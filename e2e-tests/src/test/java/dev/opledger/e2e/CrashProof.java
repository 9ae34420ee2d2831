package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestTokens;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Several nodes and crashes: three nodes on one database run checkouts against reference-tools (a
 * process of its own, outliving every node), leases of 3 s. While operations are submitted and
 * run, {@code opledger.prove.crash.kills} times (2 here) a random node is killed with SIGKILL at a
 * random moment and a fresh one started in its place (submissions go on at {@code opledger.prove.crash.rate}
 * a second meanwhile, 15 here), and once a node is stopped with SIGSTOP for
 * three leases and then let go on with SIGCONT. A submission whose node died is sent again, with the
 * same operationId, to another node.
 *
 * <p>It must end with every operation at rest — SUCCEEDED, or NEEDS_REVIEW with its reason (a
 * call whose answer died with its node is not repeated blindly) — exactly one effect per step of a
 * SUCCEEDED checkout and never two for one step in the tool server's own log, and each dead or
 * stalled node's operations taken over by another node, the time from the kill to each takeover
 * measured. This run submits without App Attest ({@code opledger.attest.mode=optional}): it is
 * about execution; the retry storm covers the attested path.
 *
 * <p>The run is bounded by {@link #budget(int)}, which grows with the kills; the annotation is only
 * there because without one the pom's 60 s default would apply.
 */
@Timeout(value = 24, unit = TimeUnit.HOURS)
class CrashProof {

    private static final String SCENARIO = "crashes";
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration STALL = LEASE.multipliedBy(3);

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    private ReferenceToolsProcess tools;

    @AfterEach
    void stopTheTools() {
        if (tools != null) {
            tools.close();
        }
    }

    record Disruption(String what, long pid, Instant at) {
    }

    /**
     * How long a run of this many kills may take: 30 minutes and 3 a kill, at least 60 (./opledger
     * prove crashes gives the proofs' JVM the same and 10 minutes). Measured at 15
     * submissions a second: ~90 s a kill, its disruption and its share of the drain
     * (docs/reliability.md, "Not done"); 3 minutes leaves room for a loaded machine.
     */
    static Duration budget(int kills) {
        return Duration.ofMinutes(Math.max(60, 30 + 3L * kills));
    }

    @Test
    void everyOperationEndsAtRestWithOneEffectPerStepWhileNodesAreKilledAndStalled() {
        int kills = Integer.getInteger("opledger.prove.crash.kills", 2);
        assertTimeoutPreemptively(budget(kills), () -> run(kills), () -> "a run of " + kills + " kills past its budget of "
                + budget(kills).toMinutes() + " min");
    }

    private void run(int kills) throws Exception {
        int operations = Integer.getInteger("opledger.prove.crash.operations", 150);
        int rate = Integer.getInteger("opledger.prove.crash.rate", 15);
        long seed = Long.getLong("opledger.prove.seed", System.nanoTime());
        var random = new Random(seed);
        System.out.printf("[prove] %s: %d operations, 3 nodes, %d SIGKILLs and 1 SIGSTOP of %d s, %d submissions/s "
                + "meanwhile, seed %d, budget %d min%n", SCENARIO, operations, kills, STALL.toSeconds(), rate, seed,
                budget(kills).toMinutes());
        long started = System.nanoTime();
        var database = TestDatabase.fresh();
        tools = ReferenceToolsProcess.start(database);
        List<ChildNode> live = new CopyOnWriteArrayList<>();
        // the first alone (it migrates the database; the others would wait for Liquibase's lock), then two at once
        live.add(nodes.start("prove-crash-0", database, worker()));
        try (var starting = Executors.newFixedThreadPool(2)) {
            List<Future<ChildNode>> three = new ArrayList<>();
            for (int i = 1; i < 3; i++) {
                int index = i;
                three.add(starting.submit(() -> nodes.start("prove-crash-" + index, database, worker())));
            }
            for (Future<ChildNode> node : three) {
                live.add(node.get());
            }
        }
        String subject = "crash-" + Long.toHexString(seed);
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        String body = ApiClient.command("checkout", Checkouts.arguments("31.40"));

        List<String> submitted = new CopyOnWriteArrayList<>();
        var chaosOver = new java.util.concurrent.atomic.AtomicBoolean();
        List<Disruption> disruptions = new CopyOnWriteArrayList<>();
        AtomicLong resent = new AtomicLong();
        AtomicLong server5xx = new AtomicLong();
        var progress = new ProofReport.Progress(SCENARIO, operations);
        try (var work = Executors.newFixedThreadPool(4)) {
            Future<?> chaos = work.submit(() -> {
                // the disruptions, spread over the submissions: kills, and one stall among them
                int stallAt = random.nextInt(kills + 1);
                for (int i = 0; i <= kills; i++) {
                    Thread.sleep(2_000 + random.nextInt(6_000));
                    ChildNode victim = live.get(random.nextInt(live.size()));
                    if (i == stallAt) {
                        disruptions.add(new Disruption("SIGSTOP " + STALL.toSeconds() + " s", victim.process().pid(),
                                Instant.now()));
                        victim.suspend();
                        Thread.sleep(STALL.toMillis());
                        victim.resume();
                        continue;
                    }
                    live.remove(victim);
                    disruptions.add(new Disruption("SIGKILL", victim.process().pid(), Instant.now()));
                    victim.kill();
                    live.add(nodes.start("prove-crash-r" + i, database, worker()));
                }
                chaosOver.set(true);
                return null;
            });
            List<Future<?>> submitters = new ArrayList<>();
            int lanes = 3;
            long pause = lanes * 1_000L / Math.max(1, rate);
            for (int lane = 0; lane < lanes; lane++) {
                int first = lane;
                submitters.add(work.submit(() -> {
                    // the first operations at once, then rate/lanes a second per lane until the disruptions are over:
                    // every kill and the stall happen under load
                    for (int index = first; index < operations || !chaosOver.get(); index += lanes) {
                        String operationId = UUID.randomUUID().toString();
                        for (int attempt = 0; ; attempt++) {
                            try {
                                List<ChildNode> up = List.copyOf(live);
                                ChildNode node = up.get((index + attempt) % up.size());
                                HttpResponse<String> response = node.api().submit(token, operationId, body);
                                if (response.statusCode() >= 500) {
                                    server5xx.incrementAndGet();
                                }
                                if (response.statusCode() == 202 || response.statusCode() == 200) {
                                    break;
                                }
                            } catch (RuntimeException nodeDied) {
                                // no answer: the same operationId again, to another node
                            }
                            resent.incrementAndGet();
                            assertThat(attempt).as("attempts of %s", operationId).isLessThan(60);
                            Thread.sleep(500);
                        }
                        submitted.add(operationId);
                        progress.step(live.size() + " nodes up, " + disruptions.size() + " disruptions, "
                                + resent.get() + " submissions sent again");
                        Thread.sleep(index < operations ? random.nextInt(60) : pause);
                    }
                    return null;
                }));
            }
            for (Future<?> submitter : submitters) {
                submitter.get();
            }
            chaos.get();
        }

        var outbox = new Outbox(database);
        int total = submitted.size();
        var drain = new ProofReport.Progress(SCENARIO + " drain", total);
        await("every operation at rest").atMost(Duration.ofSeconds(180 + total)).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    long atRest = outbox.operationsAtRest();
                    while (drain.done() < atRest) {
                        drain.step(outbox.operationsByStatus().toString());
                    }
                    return atRest >= outbox.operations();
                });

        Map<String, Long> statuses = outbox.operationsByStatus();
        List<String> repeated = tools.repeatedEffects();
        Map<String, List<String>> effects = tools.effectsByOperation();
        long wrongEffects;
        long reviewsWithoutReason;
        long stored;
        List<Long> takeoverMillis = new ArrayList<>();
        try (Connection db = E2eDatabase.connect(database)) {
            stored = E2eQueries.count(db, "SELECT count(*) FROM operation");
            reviewsWithoutReason = E2eQueries.count(db, "SELECT count(*) FROM operation WHERE status = 'NEEDS_REVIEW' "
                    + "AND coalesce(status_reason, '') = ''");
            List<Object> succeeded = E2eQueries.list(db, "SELECT operation_id::text FROM operation WHERE status = 'SUCCEEDED'");
            wrongEffects = succeeded.stream().map(String.class::cast)
                    .filter(operationId -> !List.of("capture capture_payment", "receipt send_message",
                            "reserve reserve_inventory").equals(effects.get(operationId))).count();
            for (Disruption disruption : disruptions) {
                // the first takeover of each operation the node held, after the kill or the stall began
                for (Object at : E2eQueries.list(db, "SELECT min(t.occurred_at) FROM operation_transition t "
                        + "WHERE t.reason LIKE ? GROUP BY t.operation_ref", "taken over: the lease of "
                        + disruption.pid() + "@%")) {
                    Instant taken = ((java.sql.Timestamp) at).toInstant();
                    takeoverMillis.add(Duration.between(disruption.at(), taken).toMillis());
                }
            }
        }
        long lost = total - stored;
        List<Long> sortedTakeovers = takeoverMillis.stream().sorted().toList();
        long maxTakeover = sortedTakeovers.isEmpty() ? 0 : sortedTakeovers.getLast();
        long medianTakeover = sortedTakeovers.isEmpty() ? 0 : sortedTakeovers.get(sortedTakeovers.size() / 2);
        long other = statuses.entrySet().stream()
                .filter(status -> !status.getKey().equals("SUCCEEDED") && !status.getKey().equals("NEEDS_REVIEW"))
                .mapToLong(Map.Entry::getValue).sum();

        ProofReport.measured(SCENARIO, "operations (at once, then " + rate + "/s during the disruptions), nodes", operations + " + "
                + (total - operations) + ", 3 on one database (lease 3 s)");
        ProofReport.measured(SCENARIO, "disruptions", disruptions.stream().map(Disruption::what).toList());
        ProofReport.measured(SCENARIO, "submissions sent again (node dead or stalled)", resent.get());
        ProofReport.measured(SCENARIO, "statuses at the end", statuses);
        ProofReport.figure(SCENARIO, "responses ≥ 500", server5xx.get(), "0", server5xx.get() == 0);
        ProofReport.figure(SCENARIO, "lost (accepted, no row)", lost, "0", lost == 0);
        ProofReport.figure(SCENARIO, "not at rest, or neither SUCCEEDED nor NEEDS_REVIEW", other, "0", other == 0);
        ProofReport.figure(SCENARIO, "NEEDS_REVIEW without a reason", reviewsWithoutReason, "0",
                reviewsWithoutReason == 0);
        ProofReport.figure(SCENARIO, "duplicate effects (tool server's log)", repeated.size(), "0", repeated.isEmpty());
        ProofReport.figure(SCENARIO, "SUCCEEDED without exactly 3 effects", wrongEffects, "0", wrongEffects == 0);
        ProofReport.figure(SCENARIO, "operations taken over", takeoverMillis.size(), "> 0", !takeoverMillis.isEmpty());
        // measured, not asserted: on a shared 2-core machine it is the load's figure as much as the node's
        ProofReport.measured(SCENARIO, "kill/stall → takeover, median / max (lease 3 s)", medianTakeover + " / "
                + maxTakeover + " ms");
        ProofReport.measured(SCENARIO, "time in all", ProofReport.seconds(Duration.ofNanos(System.nanoTime() - started)));

        assertThat(server5xx.get()).isZero();
        assertThat(lost).isZero();
        assertThat(other).as("statuses %s", statuses).isZero();
        assertThat(reviewsWithoutReason).isZero();
        assertThat(repeated).as("steps with more than one effect").isEmpty();
        assertThat(wrongEffects).isZero();
        assertThat(takeoverMillis).as("operations taken over from a killed or stalled node").isNotEmpty();
    }

    private List<String> worker() {
        return tools.takeoverWorkerArguments("--logging.level.root=WARN");
    }
}

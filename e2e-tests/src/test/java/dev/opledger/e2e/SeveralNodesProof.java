package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.node.kafka.EmbeddedBroker;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestTokens;
import java.sql.Connection;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Several nodes (issue 15): three nodes (child JVMs, events on, leases of 3 s, the relay's
 * election lease 3 s) on one database, reference-tools (a process of its own) and a broker in this
 * JVM, checkouts submitted through the API to all three ({@link ApiLoad},
 * {@code opledger.prove.nodes.rate} a second, 6 by default); mid-run the node that holds the relay
 * — and, waited for, at least one operation — is killed with SIGKILL. Its operations must be taken
 * over by the other two within about the lease (kill → takeover measured per operation), the relay
 * must move to one of them (kill → new holder measured), and the run must end with nothing
 * accepted lost, every operation at rest, no effect twice in the tool server's log, three for each
 * SUCCEEDED checkout, every outbox row on the topic and the activity feed applying each once.
 * CI's short versions: {@code TwoNodesIT} (one of two nodes killed mid-run, its operations taken
 * over), {@code RelayNodeDeathIT} (the relay's node killed, the relay moves) and
 * {@code CrashTakeoverIT} (a kill at each point of a step).
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class SeveralNodesProof {

    private static final String SCENARIO = "several-nodes";
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration BEFORE = Duration.ofSeconds(15);
    private static final Duration AFTER = Duration.ofSeconds(20);
    private static final List<String> ONE_EFFECT_PER_STEP = List.of(
            "capture capture_payment", "receipt send_message", "reserve reserve_inventory");

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    private EmbeddedBroker broker;
    private ReferenceToolsProcess tools;

    @AfterEach
    void stopTheBrokerAndTheTools() {
        if (tools != null) {
            tools.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void theRelaysNodeKilledMidRunItsWorkIsTakenOverAndTheRelayMovesWithNothingLostOrDoubled() throws Exception {
        double rate = Double.parseDouble(System.getProperty("opledger.prove.nodes.rate", "6"));
        long started = System.nanoTime();
        broker = EventNodes.startBroker();
        var database = TestDatabase.fresh();
        tools = ReferenceToolsProcess.start(database);
        List<ChildNode> live = new CopyOnWriteArrayList<>();
        // one after another: the first migrates the database, and two starting at once on a loaded
        // 2-core machine were seen to miss the 90 s readiness limit
        for (int i = 0; i < 3; i++) {
            live.add(nodes.start("prove-nodes-" + i, database, node()));
        }
        var outbox = new Outbox(database);
        String subject = "nodes-" + UUID.randomUUID();
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        String body = ApiClient.command("checkout", Checkouts.arguments("33.10"));
        System.out.printf("[prove] %s: 3 nodes, %.1f checkouts/s, the relay's node killed after %d s%n", SCENARIO,
                rate, BEFORE.toSeconds());

        ChildNode victim;
        Instant killedAt;
        long relayEpochBefore;
        long heldAtTheKill;
        Duration relayMoved;
        String newHolder;
        ApiLoad load = new ApiLoad(() -> List.copyOf(live), token, body, rate, 3).start();
        try (load) {
            Thread.sleep(BEFORE.toMillis());
            // the holder as the await saw it: under load a lease may lapse for a moment between two reads
            var seen = new java.util.concurrent.atomic.AtomicReference<String>();
            await("a relay publishing").atMost(Duration.ofSeconds(60)).until(() -> outbox.published() > 0
                    && outbox.relayHolder().map(h -> {
                        seen.set(h);
                        return true;
                    }).orElse(false));
            // the relay's node, once it holds work too (it runs checkouts like the others)
            String holder = seen.get();
            victim = live.stream().filter(node -> holder.startsWith(node.workerIdPrefix())).findFirst()
                    .orElseThrow(() -> new AssertionError("no live node holds the relay: " + holder));
            await("the relay's node holding an operation").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(50)).until(() -> heldBy(database, victim) > 0);
            heldAtTheKill = heldBy(database, victim);
            relayEpochBefore = outbox.relayEpoch();
            live.remove(victim);
            killedAt = Instant.now();
            long killed = System.nanoTime();
            victim.kill();
            await("the relay moved").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> outbox.relayHolder().filter(h -> !h.startsWith(victim.workerIdPrefix())).isPresent());
            relayMoved = Duration.ofNanos(System.nanoTime() - killed);
            var moved = new java.util.concurrent.atomic.AtomicReference<String>();
            await("the new holder").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> outbox.relayHolder().map(h -> {
                        moved.set(h);
                        return true;
                    }).orElse(false));
            newHolder = moved.get();
            System.out.printf("[prove] %s: killed %s (holding %d operations); the relay moved to %s after %d ms%n",
                    SCENARIO, victim.workerIdPrefix(), heldAtTheKill, newHolder, relayMoved.toMillis());
            Thread.sleep(AFTER.toMillis());
            load.stop();
        }
        Set<String> accepted = load.accepted();

        var drain = new ProofReport.Progress(SCENARIO + " drain", accepted.size());
        await("every operation at rest").atMost(Duration.ofSeconds(240 + accepted.size() / 2))
                .pollInterval(Duration.ofSeconds(1)).until(() -> {
                    long atRest = outbox.operationsAtRest();
                    String state = drain.done() < atRest ? outbox.operationsByStatus() + ", outbox backlog "
                            + outbox.backlog() : "";
                    while (drain.done() < atRest) {
                        drain.step(state);
                    }
                    return atRest >= outbox.operations();
                });
        await("the outbox published").atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> outbox.backlog() == 0);

        Map<String, Long> statuses = outbox.operationsByStatus();
        List<String> repeated = tools.repeatedEffects();
        Map<String, List<String>> effects = tools.effectsByOperation();
        long stored;
        long wrongEffects;
        long reviewsWithoutReason;
        List<String> reviewReasons;
        List<Long> takeoverMillis = new ArrayList<>();
        try (Connection db = E2eDatabase.connect(database)) {
            stored = E2eQueries.list(db, "SELECT operation_id::text FROM operation WHERE subject_id = ?", subject)
                    .stream().map(String.class::cast).filter(accepted::contains).count();
            wrongEffects = E2eQueries.list(db, "SELECT operation_id::text FROM operation WHERE status = 'SUCCEEDED'")
                    .stream().map(String.class::cast)
                    .filter(operationId -> !ONE_EFFECT_PER_STEP.equals(effects.get(operationId))).count();
            reviewsWithoutReason = E2eQueries.count(db, "SELECT count(*) FROM operation WHERE status = 'NEEDS_REVIEW' "
                    + "AND coalesce(status_reason, '') = ''");
            reviewReasons = E2eQueries.list(db, "SELECT count(*) || '× ' || left(status_reason, 160) FROM operation "
                    + "WHERE status = 'NEEDS_REVIEW' GROUP BY left(status_reason, 160) ORDER BY count(*) DESC LIMIT 4")
                    .stream().map(String.class::cast).toList();
            for (Object at : E2eQueries.list(db, "SELECT min(t.occurred_at) FROM operation_transition t "
                    + "WHERE t.reason LIKE ? GROUP BY t.operation_ref", "taken over: the lease of "
                    + victim.workerIdPrefix() + "%")) {
                takeoverMillis.add(Duration.between(killedAt, ((Timestamp) at).toInstant()).toMillis());
            }
        }
        long lost = accepted.size() - stored;
        long notAtRest = statuses.entrySet().stream().filter(status -> !List.of("SUCCEEDED", "NEEDS_REVIEW", "FAILED")
                .contains(status.getKey())).mapToLong(Map.Entry::getValue).sum();
        List<Long> sorted = takeoverMillis.stream().sorted().toList();
        long medianTakeover = sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
        long maxTakeover = sorted.isEmpty() ? 0 : sorted.getLast();
        long relayEpochAfter = outbox.relayEpoch();

        List<Outbox.Row> rows = outbox.rows();
        TopicEvents topic = TopicEvents.read(broker.bootstrapServers());
        long missingOnTopic = rows.size() - rows.stream().map(Outbox.Row::eventId)
                .filter(topic.copiesByEventId()::containsKey).count();
        await("the activity feed caught up").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .until(() -> topic.feedHasConsumedAll(broker.bootstrapServers()));
        List<String> feed = outbox.feedEntryEventIds();
        long feedTwice = feed.size() - feed.stream().distinct().count();
        boolean movedToALiveNode = live.stream().anyMatch(node -> newHolder.startsWith(node.workerIdPrefix()));

        ProofReport.measured(SCENARIO, "checkouts accepted (rate), nodes", accepted.size() + " (" + rate
                + "/s), 3 on one database (lease 3 s), the relay's node SIGKILLed");
        ProofReport.measured(SCENARIO, "answers", load.answers().entrySet().stream()
                .map(answer -> answer.getKey() + "×" + answer.getValue()).collect(Collectors.joining(" ")));
        ProofReport.measured(SCENARIO, "requests that died with the node (sent again elsewhere)", load.noAnswer());
        ProofReport.figure(SCENARIO, "answers ≥ 500 but 503 + Retry-After", load.notRetryable5xx(), "0",
                load.notRetryable5xx() == 0);
        ProofReport.figure(SCENARIO, "operations the killed node held, taken over", takeoverMillis.size() + " (held "
                + heldAtTheKill + " at the kill)", "≥ 1", !takeoverMillis.isEmpty());
        // measured, not asserted: on a shared 2-core machine it is the load's figure as much as the node's
        ProofReport.measured(SCENARIO, "kill → takeover, median / max (lease 3 s)", medianTakeover + " / "
                + maxTakeover + " ms");
        ProofReport.figure(SCENARIO, "the relay moved to a live node", newHolder.replaceFirst("@.*", "") + " (epoch "
                + relayEpochBefore + " → " + relayEpochAfter + ")", "yes", movedToALiveNode
                && relayEpochAfter > relayEpochBefore);
        ProofReport.measured(SCENARIO, "kill → relay moved (election lease 3 s)", relayMoved.toMillis() + " ms");
        ProofReport.figure(SCENARIO, "lost (accepted, no row)", lost, "0", lost == 0);
        ProofReport.figure(SCENARIO, "not at rest", notAtRest, "0", notAtRest == 0);
        ProofReport.measured(SCENARIO, "statuses at the end", statuses);
        ProofReport.measured(SCENARIO, "NEEDS_REVIEW, why", reviewReasons.isEmpty() ? "none"
                : String.join("; ", reviewReasons));
        ProofReport.figure(SCENARIO, "NEEDS_REVIEW without a reason", reviewsWithoutReason, "0",
                reviewsWithoutReason == 0);
        ProofReport.figure(SCENARIO, "duplicate effects (tool server's log)", repeated.size(), "0", repeated.isEmpty());
        ProofReport.figure(SCENARIO, "SUCCEEDED without exactly 3 effects", wrongEffects, "0", wrongEffects == 0);
        ProofReport.figure(SCENARIO, "events missing on the topic", missingOnTopic + " of " + rows.size(), "0",
                missingOnTopic == 0);
        ProofReport.measured(SCENARIO, "events on the topic twice (at-least-once relay)", topic.duplicates());
        ProofReport.figure(SCENARIO, "events the feed applied twice", feedTwice, "0", feedTwice == 0);
        ProofReport.measured(SCENARIO, "time in all", ProofReport.seconds(Duration.ofNanos(System.nanoTime() - started)));

        assertThat(load.notRetryable5xx()).as("%s", load.notRetryableSamples()).isZero();
        assertThat(takeoverMillis).as("operations taken over from the killed node").isNotEmpty();
        assertThat(movedToALiveNode).as("the relay held by a live node: %s", newHolder).isTrue();
        assertThat(relayEpochAfter).isGreaterThan(relayEpochBefore);
        assertThat(lost).isZero();
        assertThat(notAtRest).as("statuses %s", statuses).isZero();
        assertThat(reviewsWithoutReason).isZero();
        assertThat(repeated).as("steps with more than one effect").isEmpty();
        assertThat(wrongEffects).isZero();
        assertThat(missingOnTopic).isZero();
        assertThat(feedTwice).isZero();
        topic.assertEveryRowPublished(rows);
    }

    private static long heldBy(dev.opledger.node.database.LocatedDatabase database, ChildNode node) throws Exception {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.count(db, "SELECT count(*) FROM operation WHERE status = 'RUNNING' AND lease_owner LIKE ?",
                    node.workerIdPrefix() + "%");
        }
    }

    private List<String> node() {
        List<String> arguments = new ArrayList<>(tools.takeoverWorkerArguments("--logging.level.root=WARN"));
        arguments.addAll(EventNodes.arguments(broker.bootstrapServers()));
        return arguments;
    }
}

package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.node.kafka.EmbeddedBroker;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.PrivatePostgres;
import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestTokens;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The outage scenarios of {@link OutageProof} (and their short versions in CI, {@link OutageIT}).
 * Outages under checkout load through the API (issue 15): one node (a child JVM, events on)
 * runs checkouts against reference-tools (a process of its own, whose effect log is counted) and
 * publishes to a broker in this JVM, while apps ({@link ApiLoad}, {@code opledger.prove.outage.rate}
 * submissions a second, 4 by default) submit and read; each scenario takes one dependency away
 * for a while in the middle of the load, then gives it back:
 * <ul>
 * <li>{@code outage-kafka}: the broker stopped for {@code opledger.prove.outage.kafka-seconds}
 * (60);
 * <li>{@code outage-postgres}: PostgreSQL stopped ({@code pg_ctl stop -m fast}, as a restart) for
 * {@code opledger.prove.outage.postgres-seconds} (10) and started again — a cluster of the test's
 * own ({@link PrivatePostgres}, on the caller's port) under both the node and reference-tools, never the
 * shared server;
 * <li>{@code outage-tools}: reference-tools stopped for {@code opledger.prove.outage.tools-seconds}
 * (30), then started again on its port.
 * </ul>
 * Each must end with: no answer ≥ 500 but a 503 with {@code Retry-After} and problem+json, every
 * request answered (none hung past the client's 30 s), nothing accepted lost, every operation at
 * rest, no effect twice in the tool server's own log and exactly three for each SUCCEEDED
 * checkout, every outbox row on the topic, the activity feed applying each event once; how many
 * operations needed review (and why) and how long the backlog took to drain is measured.
 */
final class Outages implements AutoCloseable {

    private static final List<String> ONE_EFFECT_PER_STEP = List.of(
            "capture capture_payment", "receipt send_message", "reserve reserve_inventory");

    /** The load before the outage and after it, and its rate (checkouts a second). */
    private final Duration before;
    private final Duration after;
    private final double rate;

    private final ChildNodes nodes;

    private EmbeddedBroker broker;
    private ReferenceToolsProcess tools;
    private PrivatePostgres cluster;

    Outages(ChildNodes nodes, Duration before, Duration after, double rate) {
        this.nodes = nodes;
        this.before = before;
        this.after = after;
        this.rate = rate;
    }

    @Override
    public void close() {
        if (tools != null) {
            tools.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    void kafkaStopped(String scenario, Duration outage) throws Exception {
        broker = EventNodes.startBroker();
        var database = TestDatabase.fresh();
        tools = ReferenceToolsProcess.start(database);
        ChildNode node = nodes.start(scenario, database, node());
        var outbox = new Outbox(database);
        long[] backlogAtTheEnd = new long[1];
        underLoad(scenario, node, database, outage, broker::stop, () -> {
            backlogAtTheEnd[0] = outbox.backlog();
            broker.restart();
        });
        ProofReport.measured(scenario, "outbox backlog when the broker came back", backlogAtTheEnd[0]);
    }

    void postgresRestarted(String scenario, Duration outage, int port) throws Exception {
        onAPrivateCluster(scenario, outage, port, PrivatePostgres::stop, PrivatePostgres::startAgain);
    }

    /**
     * PostgreSQL hanging: the postmaster and all its processes SIGSTOPped for {@code outage}, so
     * connections are accepted and nothing answers, then SIGCONT. The node's statements in flight
     * end at PgJDBC's socketTimeout and new ones find no connection within Hikari's
     * connection-timeout, each a 503 or a run left to resume; nothing waits forever.
     */
    void postgresHung(String scenario, Duration outage, int port) throws Exception {
        onAPrivateCluster(scenario, outage, port, PrivatePostgres::freeze, PrivatePostgres::thaw);
    }

    /** The node and reference-tools on a cluster of the test's own, which {@code down} and {@code up} act on. */
    private void onAPrivateCluster(String scenario, Duration outage, int port, Consumer<PrivatePostgres> down,
            Consumer<PrivatePostgres> up) throws Exception {
        broker = EventNodes.startBroker();
        cluster = PrivatePostgres.start(port);
        LocatedDatabase database = cluster.createDatabase("opledger_outage");
        tools = ReferenceToolsProcess.start(database);
        ChildNode node = nodes.start(scenario, database, node());
        underLoad(scenario, node, database, outage, () -> down.accept(cluster), () -> up.accept(cluster));
    }

    void toolServerStopped(String scenario, Duration outage) throws Exception {
        broker = EventNodes.startBroker();
        var database = TestDatabase.fresh();
        tools = ReferenceToolsProcess.start(database);
        ChildNode node = nodes.start(scenario, database, node());
        underLoad(scenario, node, database, outage, tools::stop, tools::startAgain);
    }

    interface Step {
        void run() throws Exception;
    }

    private void underLoad(String scenario, ChildNode node, LocatedDatabase database, Duration outage, Step down,
            Step up) throws Exception {
        System.out.printf("[prove] %s: %.1f checkouts/s for %d s, the outage %d s of them%n", scenario, rate,
                (before.plus(outage).plus(after)).toSeconds(), outage.toSeconds());
        long started = System.nanoTime();
        String subject = scenario + "-" + UUID.randomUUID();
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        String body = ApiClient.command("checkout", Checkouts.arguments("27.30"));
        long downAt;
        long upAt;
        ApiLoad load = new ApiLoad(() -> List.of(node), token, body, rate, 3).start();
        try (load) {
            Thread.sleep(before.toMillis());
            System.out.printf("[prove] %s: down, %d accepted so far%n", scenario, load.accepted().size());
            down.run();
            downAt = System.nanoTime();
            Thread.sleep(outage.toMillis());
            up.run();
            upAt = System.nanoTime();
            System.out.printf("[prove] %s: back after %s, %d accepted, answers %s%n", scenario,
                    ProofReport.seconds(Duration.ofNanos(upAt - downAt)), load.accepted().size(), load.answers());
            Thread.sleep(after.toMillis());
            load.stop();
        }
        Set<String> accepted = load.accepted();

        var outbox = new Outbox(database);
        var drain = new ProofReport.Progress(scenario + " drain", accepted.size());
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
        Duration drained = Duration.ofNanos(System.nanoTime() - upAt);

        Map<String, Long> statuses = outbox.operationsByStatus();
        List<String> repeated = tools.repeatedEffects();
        Map<String, List<String>> effects = tools.effectsByOperation();
        long stored;
        long wrongEffects;
        long reviewsWithoutReason;
        List<String> reviewReasons;
        try (Connection db = E2eDatabase.connect(database)) {
            stored = E2eQueries.list(db, "SELECT operation_id::text FROM operation WHERE subject_id = ?", subject)
                    .stream().map(String.class::cast).filter(accepted::contains).count();
            wrongEffects = E2eQueries.list(db, "SELECT operation_id::text FROM operation WHERE status = 'SUCCEEDED'")
                    .stream().map(String.class::cast)
                    .filter(operationId -> !ONE_EFFECT_PER_STEP.equals(effects.get(operationId))).count();
            reviewsWithoutReason = E2eQueries.count(db, "SELECT count(*) FROM operation WHERE status = 'NEEDS_REVIEW' "
                    + "AND coalesce(status_reason, '') = ''");
            // the reasons, each with how often, the operation-specific parts (step keys are fixed) as they are
            reviewReasons = E2eQueries.list(db, "SELECT count(*) || '× ' || left(status_reason, 160) FROM operation "
                    + "WHERE status = 'NEEDS_REVIEW' GROUP BY left(status_reason, 160) ORDER BY count(*) DESC LIMIT 4")
                    .stream().map(String.class::cast).toList();
        }
        long lost = accepted.size() - stored;
        long notAtRest = statuses.entrySet().stream().filter(status -> !List.of("SUCCEEDED", "NEEDS_REVIEW", "FAILED")
                .contains(status.getKey())).mapToLong(Map.Entry::getValue).sum();
        long reviews = statuses.getOrDefault("NEEDS_REVIEW", 0L);
        // every checkout here is one that succeeds (an amount under the approval limit, stock enough): a
        // FAILED one is a run the outage broke, not an outcome
        long failed = statuses.getOrDefault("FAILED", 0L);

        List<Outbox.Row> rows = outbox.rows();
        TopicEvents topic = TopicEvents.read(broker.bootstrapServers());
        long missingOnTopic = rows.size() - rows.stream().map(Outbox.Row::eventId)
                .filter(topic.copiesByEventId()::containsKey).count();
        await("the activity feed caught up").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .until(() -> topic.feedHasConsumedAll(broker.bootstrapServers()));
        List<String> feed = outbox.feedEntryEventIds();
        long feedTwice = feed.size() - feed.stream().distinct().count();

        ProofReport.measured(scenario, "checkouts accepted (rate, outage)", accepted.size() + " (" + rate + "/s, "
                + ProofReport.seconds(Duration.ofNanos(upAt - downAt)) + " down)");
        ProofReport.measured(scenario, "answers", load.answers().entrySet().stream()
                .map(answer -> answer.getKey() + "×" + answer.getValue()).collect(Collectors.joining(" ")));
        ProofReport.measured(scenario, "503 with Retry-After (retryable)", load.retryable503());
        ProofReport.figure(scenario, "other answers ≥ 500", load.notRetryable5xx(), "0", load.notRetryable5xx() == 0);
        ProofReport.figure(scenario, "requests unanswered (30 s) or refused", load.noAnswer(), "0",
                load.noAnswer() == 0);
        ProofReport.measured(scenario, "slowest answer", load.slowestMillis() + " ms");
        ProofReport.figure(scenario, "lost (accepted, no row)", lost, "0", lost == 0);
        ProofReport.figure(scenario, "not at rest", notAtRest, "0", notAtRest == 0);
        ProofReport.measured(scenario, "statuses at the end", statuses);
        ProofReport.figure(scenario, "FAILED (a run the outage broke)", failed, "0", failed == 0);
        ProofReport.measured(scenario, "NEEDS_REVIEW, why", reviews == 0 ? "none" : String.join("; ", reviewReasons));
        ProofReport.figure(scenario, "NEEDS_REVIEW without a reason", reviewsWithoutReason, "0",
                reviewsWithoutReason == 0);
        ProofReport.figure(scenario, "duplicate effects (tool server's log)", repeated.size(), "0", repeated.isEmpty());
        ProofReport.figure(scenario, "SUCCEEDED without exactly 3 effects", wrongEffects, "0", wrongEffects == 0);
        ProofReport.figure(scenario, "events missing on the topic", missingOnTopic + " of " + rows.size(), "0",
                missingOnTopic == 0);
        ProofReport.measured(scenario, "events on the topic twice (at-least-once relay)", topic.duplicates());
        ProofReport.figure(scenario, "events the feed applied twice", feedTwice, "0", feedTwice == 0);
        ProofReport.measured(scenario, "back → all at rest, backlog 0 (load went on " + after.toSeconds() + " s)",
                ProofReport.seconds(drained));
        ProofReport.measured(scenario, "time in all", ProofReport.seconds(Duration.ofNanos(System.nanoTime() - started)));

        assertThat(load.notRetryable5xx()).as("answers ≥ 500 but 503 + Retry-After: %s", load.notRetryableSamples())
                .isZero();
        assertThat(load.noAnswer()).as("requests without an answer").isZero();
        assertThat(lost).isZero();
        assertThat(notAtRest).as("statuses %s", statuses).isZero();
        assertThat(failed).as("statuses %s", statuses).isZero();
        assertThat(reviewsWithoutReason).isZero();
        assertThat(repeated).as("steps with more than one effect").isEmpty();
        assertThat(wrongEffects).as("SUCCEEDED checkouts without exactly one effect per step").isZero();
        assertThat(missingOnTopic).isZero();
        assertThat(feedTwice).isZero();
        topic.assertEveryRowPublished(rows);
    }

    private List<String> node() {
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.attest.mode=optional",
                "--opledger.worker.lease=5s",
                "--opledger.worker.heartbeat=1s",
                "--spring.datasource.hikari.maximum-pool-size=10",
                "--logging.level.root=WARN"));
        arguments.addAll(tools.nodeArguments());
        arguments.addAll(EventNodes.arguments(broker.bootstrapServers()));
        return arguments;
    }
}

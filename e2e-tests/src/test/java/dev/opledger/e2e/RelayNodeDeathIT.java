package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.node.kafka.EmbeddedBroker;
import dev.opledger.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The node whose relay is publishing dies, and the other node's relay takes the election over
 * within seconds: two real nodes (child JVMs, events on) run checkouts against reference-tools
 * and one real broker (Kafka 4, KRaft, in the test JVM). No event is lost (every outbox row is
 * on the topic, read_committed), duplicates on the topic are counted, and the activity feed of
 * the nodes applied each event once.
 *
 * <p>Two ways to die: SIGKILL from outside while the relay publishes (where in its batch it
 * dies is chance, so duplicates may be none), and a crash point that halts the node right after
 * Kafka committed a batch and before the database marked it published (so the next relay
 * publishes that batch again: duplicates there must be).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RelayNodeDeathIT {

    private static final int CHECKOUTS = 240;
    private static final Duration TAKEOVER = Duration.ofSeconds(20);
    private static final Duration RUN = Duration.ofMinutes(3);
    /** Where the doomed relay dies: after this many events, well inside the load's ~2,200. */
    private static final int PUBLISHED_BEFORE_THE_DEATH = 300;
    /** What RelayCrashPoint prints as it halts the node. */
    private static final Pattern HALTED = Pattern.compile("halting after the relay's Kafka commit of (\\d+) records");

    private static ReferenceToolsProcess tools;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    private EmbeddedBroker broker;
    private LocatedDatabase database;
    private Outbox outbox;
    private Checkouts checkouts;

    @BeforeAll
    static void startTheToolServer() throws Exception {
        tools = ReferenceToolsProcess.start(TestDatabase.fresh());
    }

    @AfterAll
    static void stopTheToolServer() {
        if (tools != null) {
            tools.close();
        }
    }

    @BeforeEach
    void aBrokerAndADatabaseOfItsOwn() {
        broker = EventNodes.startBroker();
        database = TestDatabase.fresh();
        outbox = new Outbox(database);
        checkouts = new Checkouts(database);
    }

    @AfterEach
    void stopTheBroker() {
        broker.close();
    }

    @Test
    void theRelaysNodeKilledWhilePublishingIsTakenOverAndNoEventIsLost() throws Exception {
        long started = System.nanoTime();
        var a = CompletableFuture.supplyAsync(() -> start("relay-a"));
        var b = CompletableFuture.supplyAsync(() -> start("relay-b"));
        List<ChildNode> both = List.of(a.join(), b.join());
        String holder = await("a relay elected").atMost(TAKEOVER).until(outbox::relayHolder, h -> h.isPresent()).get();
        ChildNode doomed = both.stream().filter(node -> holder.startsWith(node.workerIdPrefix())).findFirst().orElseThrow();
        ChildNode heir = both.stream().filter(node -> node != doomed).findFirst().orElseThrow();
        long epoch = outbox.relayEpoch();

        // the load goes on through the kill: submitted to the heir, run by the workers of both
        var submitted = new AtomicInteger();
        var load = CompletableFuture.supplyAsync(() -> submit(List.of(heir), CHECKOUTS, submitted));
        var lastPublished = new AtomicLong();
        await("the relay publishing, with a backlog").atMost(RUN).pollInterval(Duration.ofMillis(50)).until(() -> {
            long published = outbox.published();
            return published > lastPublished.getAndSet(published) && published >= PUBLISHED_BEFORE_THE_DEATH
                    && outbox.backlog() > 0;
        });

        doomed.kill();
        long killed = System.nanoTime();
        long publishedAtDeath = outbox.published();
        long atRestAtDeath = outbox.operationsAtRest();
        int submittedAtDeath = submitted.get();

        await("the other node's relay elected").atMost(TAKEOVER).pollInterval(Duration.ofMillis(100))
                .until(() -> outbox.relayHolder().filter(h -> h.startsWith(heir.workerIdPrefix())).isPresent());
        long tookOver = System.nanoTime();
        assertThat(outbox.relayEpoch()).isGreaterThan(epoch);
        await("the heir publishing").atMost(TAKEOVER).until(() -> outbox.published() > publishedAtDeath);

        List<String> operations = load.join();
        assertThat(atRestAtDeath).as("checkouts at rest when the relay's node died: in the middle of the load")
                .isLessThan(CHECKOUTS);
        Result result = settle(operations);
        System.out.printf("RelayNodeDeathIT (SIGKILL): %d operations %s; killed at %d published, %d submitted, %d at rest, "
                        + "backlog then > 0; taken over in %.1f s; %d events, %d records on the topic (%d duplicates); "
                        + "%.1f s in all%n",
                operations.size(), outbox.operationsByStatus(), publishedAtDeath, submittedAtDeath, atRestAtDeath,
                seconds(killed, tookOver), result.events(), result.topic().records(), result.topic().duplicates(),
                seconds(started, System.nanoTime()));
    }

    @Test
    void aNodeDeadBetweenKafkasCommitAndTheDatabasesHasItsBatchPublishedAgainAndTheFeedAppliesItOnce()
            throws Exception {
        long started = System.nanoTime();
        // A alone first, so its relay holds the election when B comes
        ChildNode a = start("relay-a", "--opledger.test.crash-at=relay-after-kafka-commit@" + PUBLISHED_BEFORE_THE_DEATH);
        await("A's relay elected").atMost(TAKEOVER).until(() -> outbox.relayHolder()
                .filter(h -> h.startsWith(a.workerIdPrefix())).isPresent());
        long epoch = outbox.relayEpoch();
        CompletableFuture<Long> death = a.process().onExit().thenApply(exited -> System.nanoTime());
        ChildNode b = start("relay-b");

        // the load goes on through the death: submitted to B, run by the workers of both
        var load = CompletableFuture.supplyAsync(() -> submit(List.of(b), CHECKOUTS, new AtomicInteger()));

        assertThat(a.awaitExit(RUN)).as("A halts after a Kafka commit, as SIGKILL would stop it").isEqualTo(137);
        long died = death.join();
        await("B's relay elected").atMost(TAKEOVER).pollInterval(Duration.ofMillis(100))
                .until(() -> outbox.relayHolder().filter(h -> h.startsWith(b.workerIdPrefix())).isPresent());
        long tookOver = System.nanoTime();
        assertThat(outbox.relayEpoch()).isGreaterThan(epoch);

        List<String> operations = load.join();
        Result result = settle(operations);
        Matcher halted = HALTED.matcher(a.node().logTail(20));
        assertThat(halted.find()).as("A's last words: %s", a.node().logTail(20)).isTrue();
        int deadBatch = Integer.parseInt(halted.group(1));
        assertThat(result.topic().duplicates()).as("A's last batch, on the topic twice").isEqualTo(deadBatch);
        assertThat(result.topic().copiesByEventId().values()).as("no event more than twice").allMatch(n -> n <= 2);
        System.out.printf("RelayNodeDeathIT (crash point): %d operations %s; taken over %.1f s after A died; "
                        + "%d events, %d records on the topic (%d duplicates); %.1f s in all%n",
                operations.size(), outbox.operationsByStatus(), seconds(died, tookOver), result.events(),
                result.topic().records(), result.topic().duplicates(), seconds(started, System.nanoTime()));
    }

    private record Result(int events, TopicEvents topic) {
    }

    /**
     * The operations end (the dead node's are taken over by the other's workers), the backlog
     * drains, every outbox row is on the topic, and the feed applied each event once.
     */
    private Result settle(List<String> operations) throws Exception {
        await("every operation at rest").atMost(RUN).pollInterval(Duration.ofSeconds(1))
                .until(() -> outbox.atRestOf(operations) == operations.size());
        await("the backlog drained").atMost(RUN).pollInterval(Duration.ofMillis(500)).until(() -> outbox.backlog() == 0);
        List<Outbox.Row> rows = outbox.rows();
        TopicEvents topic = TopicEvents.read(broker.bootstrapServers());
        topic.assertEveryRowPublished(rows);
        await("the activity feed caught up").atMost(RUN).pollInterval(Duration.ofSeconds(1))
                .until(() -> topic.feedHasConsumedAll(broker.bootstrapServers()));
        assertThat(outbox.feedEntryEventIds()).as("the feed's entries: each event applied once, duplicates absorbed")
                .containsExactlyInAnyOrderElementsOf(rows.stream().map(Outbox.Row::eventId).toList());
        assertThat(outbox.consumedByTheFeed()).isEqualTo(rows.size());
        return new Result(rows.size(), topic);
    }

    private ChildNode start(String name, String... extra) {
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.attest.mode=optional",
                "--opledger.worker.lease=3s",
                "--opledger.worker.heartbeat=1s",
                // the PostgreSQL server is shared with other test runs: no more connections than the runs need
                "--spring.datasource.hikari.maximum-pool-size=8"));
        arguments.addAll(tools.nodeArguments());
        arguments.addAll(EventNodes.arguments(broker.bootstrapServers()));
        arguments.addAll(List.of(extra));
        try {
            return nodes.start(name, database, arguments);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start node " + name, e);
        }
    }

    /** Checkouts submitted round-robin to these nodes, {@code submitted} counting them. */
    private List<String> submit(List<ChildNode> to, int count, AtomicInteger submitted) {
        List<String> operationIds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            operationIds.add(checkouts.submit(to.get(i % to.size()), Checkouts.arguments("49.90")));
            submitted.incrementAndGet();
        }
        return operationIds;
    }

    private static double seconds(long from, long to) {
        return (to - from) / 1e9;
    }
}

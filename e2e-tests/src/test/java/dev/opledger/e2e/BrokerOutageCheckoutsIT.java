package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.node.kafka.EmbeddedBroker;
import dev.opledger.testing.TestDatabase;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka down for a minute does not stop the ledger, at full size: 500 checkouts run through a real
 * node (its workers, the checkout's graph, reference-tools over MCP, each in a JVM of its own)
 * while the real broker (Kafka 4, KRaft, in the test JVM so the test can stop it and start it
 * again on its port and log) is stopped for 60 s. During the outage operations reach their end
 * and the outbox's backlog grows; once the broker is back the backlog drains, every outbox row is
 * on the topic as a read_committed consumer reads it, each operation's sequence gapless, and the
 * node's own consumer (the activity feed) applied each event once.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class BrokerOutageCheckoutsIT {

    private static final int BEFORE = 100;
    private static final int DURING = 400;
    /** 30 s in `./opledger test` (CI's time); {@code -Dopledger.e2e.broker-outage-seconds=60} for issue 15's minute. */
    private static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("opledger.e2e.broker-outage-seconds", 30));
    /** How long after the stop a batch Kafka committed just before it may still be marked published. */
    private static final Duration SETTLING = Duration.ofSeconds(5);

    /** The outbox and the operations, once a second while the broker is down. */
    private record Sample(long millisSinceStop, long atRest, long backlog, long published) {
    }

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
    void checkoutsGoOnWhileTheBrokerIsDownAndEveryEventIsPublishedAndAppliedOnceWhenItIsBack() throws Exception {
        long started = System.nanoTime();
        broker = EventNodes.startBroker();
        tools = ReferenceToolsProcess.start(TestDatabase.fresh());
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        var outbox = new Outbox(database);
        ChildNode node = nodes.start("outage", database, node());

        submit(checkouts, node, BEFORE);
        await("the relay publishing").atMost(Duration.ofSeconds(60)).until(() -> outbox.published() > 0);

        broker.stop();
        long stopped = System.nanoTime();
        Sample atStop = sample(outbox, stopped);
        List<String> during = submit(checkouts, node, DURING);
        List<Sample> samples = new ArrayList<>();
        // the outage itself: the one fixed wait, sampled every second
        await("the outage").atMost(OUTAGE.plusSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Sample sample = sample(outbox, stopped);
            samples.add(sample);
            return sample.millisSinceStop() >= OUTAGE.toMillis();
        });
        Sample atEnd = samples.getLast();
        long duringAtRest = outbox.atRestOf(during);

        assertThat(atEnd.atRest() - atStop.atRest()).as("operations that reached their end while the broker was down")
                .isGreaterThanOrEqualTo(50);
        assertThat(duringAtRest).as("of them, submitted after the broker stopped").isPositive();
        assertThat(outbox.publishedOf(during)).as("events published of the operations submitted during the outage")
                .isZero();
        assertThat(atEnd.backlog()).as("the backlog grew by at least the acceptances of the operations submitted")
                .isGreaterThanOrEqualTo(atStop.backlog() + DURING);
        List<Sample> settled = samples.stream().filter(s -> s.millisSinceStop() >= SETTLING.toMillis()).toList();
        assertThat(settled).extracting(Sample::published).as("nothing published while the broker is down")
                .containsOnly(settled.getFirst().published());
        assertThat(settled).extracting(Sample::backlog).as("the backlog only grows while the broker is down")
                .isSorted();

        broker.restart();
        long restarted = System.nanoTime();

        await("all 500 operations at rest").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                .until(() -> outbox.operationsAtRest() == BEFORE + DURING);
        await("the backlog drained").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .until(() -> outbox.backlog() == 0);
        long drained = System.nanoTime();
        assertThat(outbox.operations()).isEqualTo(BEFORE + DURING);
        List<Outbox.Row> rows = outbox.rows();
        assertThat(rows).allMatch(Outbox.Row::published);

        TopicEvents topic = TopicEvents.read(broker.bootstrapServers());
        topic.assertEveryRowPublished(rows);
        await("the activity feed caught up").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> topic.feedHasConsumedAll(broker.bootstrapServers()));
        assertThat(outbox.feedEntryEventIds()).as("the feed's entries: each event applied once")
                .containsExactlyInAnyOrderElementsOf(rows.stream().map(Outbox.Row::eventId).toList());
        assertThat(outbox.consumedByTheFeed()).isEqualTo(rows.size());

        Map<String, Long> statuses = outbox.operationsByStatus();
        System.out.printf("BrokerOutageCheckoutsIT: %d operations %s; %d events, %d records on the topic (%d duplicates); "
                        + "during the %d s outage %d operations reached their end and the backlog grew %d -> %d; "
                        + "drained %.1f s after the broker returned; %.1f s in all%n",
                BEFORE + DURING, statuses, rows.size(), topic.records(), topic.duplicates(), OUTAGE.toSeconds(),
                atEnd.atRest() - atStop.atRest(), atStop.backlog(), atEnd.backlog(), seconds(restarted, drained),
                seconds(started, System.nanoTime()));
    }

    private List<String> node() {
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.attest.mode=optional",
                // the PostgreSQL server is shared with other test runs: no more connections than the run needs
                "--spring.datasource.hikari.maximum-pool-size=8"));
        arguments.addAll(tools.nodeArguments());
        arguments.addAll(EventNodes.arguments(broker.bootstrapServers()));
        return arguments;
    }

    private static List<String> submit(Checkouts checkouts, ChildNode node, int count) {
        List<String> operationIds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            operationIds.add(checkouts.submit(node, Checkouts.arguments("49.90")));
        }
        return operationIds;
    }

    private static Sample sample(Outbox outbox, long stopped) throws SQLException {
        return new Sample(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped), outbox.operationsAtRest(),
                outbox.backlog(), outbox.published());
    }

    private static double seconds(long from, long to) {
        return (to - from) / 1e9;
    }
}

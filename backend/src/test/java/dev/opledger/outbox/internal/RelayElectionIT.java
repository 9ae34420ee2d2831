package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TopicReader;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * One relay publishes at a time, elected through PostgreSQL: the one not elected publishes
 * nothing, a relay whose epoch is over cannot mark rows, and when the holder stops or dies
 * another relay takes over within seconds and publishes what was left. The node's own relay is
 * stopped for each test, so only the relays a test starts compete.
 */
@EventsIntegrationTest
class RelayElectionIT {

    private static final String TOPIC = "opledger.operation-events";

    @Autowired
    OutboxRelay nodesRelay;

    @Autowired
    EventsProperties properties;

    @Autowired
    KafkaProperties kafka;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    RelayElection election;

    @Autowired
    OutboxRows rows;

    @Autowired
    JsonMapper json;

    @Autowired
    ClaimService claims;

    @Autowired
    MeterRegistry nodeMeters;

    private final List<OutboxRelay> started = new ArrayList<>();
    private final List<SimpleMeterRegistry> meters = new ArrayList<>();

    @BeforeEach
    void stopTheNodesRelay() {
        nodesRelay.stop();
    }

    @AfterEach
    void restartTheNodesRelay() {
        started.forEach(OutboxRelay::stop);
        nodesRelay.start();
    }

    private OutboxRelay start(String node) {
        var registry = new SimpleMeterRegistry();
        var relay = EventsConfiguration.relay(node, properties, kafka, transactions, election, rows, json, registry);
        relay.start();
        started.add(relay);
        meters.add(registry);
        return relay;
    }

    private double publishedBy(OutboxRelay relay) {
        return meters.get(started.indexOf(relay)).counter("opledger.outbox.published").count();
    }

    private List<OperationId> claim(int count) {
        return Operations.claim(claims, new SubjectId("relay-" + UUID.randomUUID()), count);
    }

    private boolean published(List<OperationId> ids) {
        return ids.stream().allMatch(id -> Boolean.TRUE.equals(jdbc.queryForObject(
                "SELECT count(published_at) = count(*) FROM outbox_event WHERE operation_id = ?", Boolean.class, id.value())));
    }

    private static List<String> keysOnTheTopic(List<OperationId> ids) {
        var wanted = ids.stream().map(OperationId::toString).toList();
        return TopicReader.readAll(TOPIC).stream().map(record -> record.key()).filter(wanted::contains).toList();
    }

    @Test
    void ofTwoRelaysOnlyTheElectedOnePublishesAndEveryEventOnce() {
        OutboxRelay a = start("relay-a");
        OutboxRelay b = start("relay-b");
        await().atMost(Duration.ofSeconds(10)).until(() -> a.elected() || b.elected());
        OutboxRelay holder = a.elected() ? a : b;
        OutboxRelay other = holder == a ? b : a;

        List<OperationId> ids = claim(50);
        await().atMost(Duration.ofSeconds(30)).until(() -> published(ids));

        assertThat(other.elected()).isFalse();
        assertThat(publishedBy(other)).isZero();
        assertThat(publishedBy(holder)).isGreaterThanOrEqualTo(50);
        assertThat(election.holder()).hasValueSatisfying(h -> assertThat(h.node()).isEqualTo(holder.node()));
        assertThat(keysOnTheTopic(ids)).hasSize(50).doesNotHaveDuplicates();
    }

    @Test
    void aRelayWhoseEpochIsOverCannotMarkRows() {
        long stale = election.acquire("stale-node", Duration.ofSeconds(30)).orElseThrow();
        List<OperationId> ids = claim(2);
        List<Long> rowIds = jdbc.queryForList("SELECT id FROM outbox_event WHERE operation_id IN (?, ?)", Long.class,
                ids.get(0).value(), ids.get(1).value());
        // its lease ran out (a long pause) and another node won the election
        jdbc.update("UPDATE outbox_relay SET expires_at = now() - interval '1 second' WHERE epoch = ?", stale);
        long current = election.acquire("current-node", Duration.ofSeconds(30)).orElseThrow();

        assertThat(current).isEqualTo(stale + 1);
        assertThat(rows.renewAndReadUnpublished(stale, Duration.ofSeconds(30), Duration.ofSeconds(30), 10_000)).isEmpty();
        assertThat(rows.renewAndReadUnpublished(current, Duration.ofSeconds(30), Duration.ofSeconds(30), 10_000))
                .hasValueSatisfying(events -> assertThat(events).extracting(OutboxEvent::id).containsAll(rowIds));
        assertThat(rows.markPublished(rowIds, stale)).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE id = ANY(?::bigint[]) AND published_at IS NULL",
                Long.class, "{" + rowIds.get(0) + "," + rowIds.get(1) + "}")).isEqualTo(2);
        assertThat(rows.markPublished(rowIds, current)).isEqualTo(2);
        election.release(current);
    }

    @Test
    void aBatchStalledInItsTransactionIsEndedByTheDatabaseAndItsElectionCanBeTakenOver() throws Exception {
        long stalled = election.acquire("stalled-node", Duration.ofSeconds(30)).orElseThrow();
        claim(1);
        var read = new CompletableFuture<List<OutboxEvent>>();
        Thread batch = Thread.ofPlatform().start(() -> {
            try {
                new TransactionTemplate(transactions).executeWithoutResult(status -> {
                    read.complete(rows.renewAndReadUnpublished(stalled, Duration.ofSeconds(30), Duration.ofMillis(500), 10)
                            .orElseThrow(() -> new IllegalStateException("the stalled-node's renewal failed")));
                    // a SIGSTOPped node: its transaction holds the election's row lock and sends nothing
                    sleep(Duration.ofSeconds(30));
                });
            } catch (RuntimeException e) {
                // the database ended the session, and so the transaction (or the renewal failed: read says so)
                read.completeExceptionally(e);
            }
        });
        try {
            assertThat(read.get(10, TimeUnit.SECONDS)).as("the stalled batch renewed and read its rows").isNotEmpty();
            // the stalled batch's lease runs 30 s, so only the row lock's release lets this through: by the stall limit
            await().atMost(Duration.ofSeconds(5)).until(() -> jdbc.update(
                    "UPDATE outbox_relay SET expires_at = now() - interval '1 second' WHERE epoch = ?", stalled) == 1);
            assertThat(election.acquire("current-node", Duration.ofSeconds(30))).hasValue(stalled + 1);
            election.release(stalled + 1);
        } finally {
            batch.interrupt();
            batch.join();
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void whenTheHolderStopsAnotherRelayTakesOverAtOnce() {
        OutboxRelay first = start("relay-first");
        await().atMost(Duration.ofSeconds(10)).until(first::elected);
        OutboxRelay second = start("relay-second");

        first.stop();

        await().atMost(Duration.ofSeconds(2)).until(second::elected);
        List<OperationId> ids = claim(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> published(ids));
        assertThat(publishedBy(second)).isGreaterThanOrEqualTo(3);
    }

    @Test
    void whenTheHolderDiesAnotherRelayTakesOverAfterItsLeaseAndPublishesTheBacklog() {
        // a holder that won the election and died: nobody renews it
        jdbc.update("UPDATE outbox_relay SET epoch = epoch + 1, holder = 'dead-node', "
                + "expires_at = now() + interval '2 seconds' WHERE name = 'relay'");
        List<OperationId> ids = claim(5);
        OutboxRelay survivor = start("relay-survivor");

        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(2)).until(() -> !survivor.elected());
        assertThat(published(ids)).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(survivor::elected);
        await().atMost(Duration.ofSeconds(10)).until(() -> published(ids));
        assertThat(election.holder()).hasValueSatisfying(h -> assertThat(h.node()).isEqualTo("relay-survivor"));
        assertThat(keysOnTheTopic(ids)).hasSize(5).doesNotHaveDuplicates();
    }

    @Test
    void theBacklogAndTheLagOfUnpublishedEventsAreMetrics() {
        List<OperationId> ids = claim(3);
        jdbc.update("UPDATE outbox_event SET occurred_at = now() - interval '1 minute' WHERE operation_id = ?",
                ids.getFirst().value());

        assertThat(nodeMeters.get("opledger.outbox.backlog").gauge().value()).isGreaterThanOrEqualTo(3);
        assertThat(nodeMeters.get("opledger.outbox.lag").gauge().value()).isGreaterThanOrEqualTo(60);

        OutboxRelay relay = start("relay-metrics");
        await().atMost(Duration.ofSeconds(10)).until(() -> published(ids));
        assertThat(nodeMeters.get("opledger.outbox.backlog").gauge().value()).isZero();
        assertThat(nodeMeters.get("opledger.outbox.lag").gauge().value()).isZero();
        assertThat(publishedBy(relay)).isGreaterThanOrEqualTo(3);
    }

    @Test
    void theElectedRelayPurgesRowsPublishedLongerAgoThanTheRetention() {
        List<OperationId> old = claim(2);
        List<OperationId> recent = claim(1);
        // as if a relay had published them one retention and an hour ago: the rows and the batch's record
        String age = properties.retention().plusHours(1).toMillis() + " milliseconds";
        jdbc.update("UPDATE outbox_event SET published_at = now() - ?::interval WHERE operation_id IN (?, ?)",
                age, old.get(0).value(), old.get(1).value());
        jdbc.update("INSERT INTO outbox_publication (epoch, events, first_id, last_id, published_at) "
                + "SELECT 0, count(*), min(id), max(id), now() - ?::interval FROM outbox_event WHERE operation_id IN (?, ?)",
                age, old.get(0).value(), old.get(1).value());

        start("relay-purge");

        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject("SELECT count(*) FROM outbox_event "
                + "WHERE operation_id IN (?, ?)", Long.class, old.get(0).value(), old.get(1).value()) == 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> published(recent));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE operation_id = ?", Long.class,
                recent.getFirst().value())).isEqualTo(1);
    }

    @Test
    void anIdleRelayRenewsTheElectionEveryQuarterLeaseNotEveryPollAndStillPublishesAtOnce() {
        OutboxRelay relay = start("relay-idle");
        await().atMost(Duration.ofSeconds(10)).until(relay::elected);
        await().atMost(Duration.ofSeconds(10)).until(() -> rows.backlog() == 0);

        // the tests' lease is 2 s and their poll 50 ms: a renewal every 500 ms, not one per poll (40 in 2 s)
        Set<OffsetDateTime> leases = new HashSet<>();
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(20))
                .until(() -> leases.add(jdbc.queryForObject("SELECT expires_at FROM outbox_relay WHERE name = 'relay'",
                        OffsetDateTime.class)) || true);
        assertThat(leases).hasSizeBetween(2, 7);
        assertThat(election.holder()).hasValueSatisfying(h -> assertThat(h.current()).isTrue());

        List<OperationId> ids = claim(3);
        await().atMost(Duration.ofSeconds(1)).until(() -> published(ids));
    }

    @Test
    void anIdleRelayWhoseElectionWasTakenOverNoticesAtItsNextRenewalAndPublishesNothing() {
        OutboxRelay relay = start("relay-usurped");
        await().atMost(Duration.ofSeconds(10)).until(relay::elected);
        await().atMost(Duration.ofSeconds(10)).until(() -> rows.backlog() == 0);
        // another node won the election (its lease outlasts the test), as after a long pause of this one
        long usurper = jdbc.queryForObject("UPDATE outbox_relay SET epoch = epoch + 1, holder = 'usurper', "
                + "expires_at = now() + interval '1 minute' WHERE name = 'relay' RETURNING epoch", Long.class);
        try {
            await().atMost(Duration.ofSeconds(2)).until(() -> !relay.elected());
            List<OperationId> ids = claim(2);
            await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(1)).until(() -> !published(ids));
            assertThat(publishedBy(relay)).isZero();
        } finally {
            election.release(usurper);
        }
    }
}

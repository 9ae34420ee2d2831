package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TopicReader;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The relay dies at the worst moment of a batch: Kafka committed it, the database never marked
 * it, and the election was not given up (as a SIGKILL would leave it). Another relay takes over
 * after the lease and publishes the batch again: no event is lost, the duplicates are on the
 * topic, and the node's consumer (the activity feed) applies each event once.
 */
@EventsIntegrationTest
class RelayDeathIT {

    private static final String TOPIC = "opledger.operation-events";

    /** What the doomed relay's thread dies of: not an exception anything catches. */
    private static final class Killed extends Error {
        Killed() {
            super("the relay's node was killed between Kafka's commit and the database's");
        }
    }

    @Autowired
    ApplicationContext node;

    @Autowired
    OutboxRelay nodesRelay;

    @Autowired
    EventsProperties properties;

    @Autowired
    KafkaProperties kafka;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    JsonMapper json;

    @Autowired
    ClaimService claims;

    OutboxRelay doomed;
    OutboxRelay heir;

    @BeforeEach
    void stopTheNodesRelay() {
        nodesRelay.stop();
    }

    @AfterEach
    void restartTheNodesRelay() {
        doomed.stop();
        if (heir != null) {
            heir.stop();
        }
        nodesRelay.start();
    }

    /** A producer that dies right after its first commit. */
    private Producer<String, byte[]> dyingAfterItsFirstCommit(EventsProperties settings, AtomicBoolean died) {
        var producer = new KafkaProducer<String, byte[]>(EventsConfiguration.producerSettings(kafka, settings)) {
            @Override
            public void commitTransaction() {
                super.commitTransaction();
                if (died.compareAndSet(false, true)) {
                    throw new Killed();
                }
            }
        };
        producer.initTransactions();
        return producer;
    }

    /** The doomed relay's thread dies of an uncaught error on purpose: waits must not rethrow it. */
    private static ConditionFactory waiting() {
        return await().dontCatchUncaughtExceptions();
    }

    private long count(String sql, List<OperationId> ids) {
        return jdbc.queryForObject(sql + " WHERE operation_id = ANY(?::uuid[])", Long.class,
                "{" + String.join(",", ids.stream().map(OperationId::toString).toList()) + "}");
    }

    @Test
    void aRelayKilledAfterKafkasCommitLosesNoEventAndTheConsumerAppliesTheDuplicatesOnce() {
        List<OperationId> ids = Operations.claim(claims, new SubjectId("death-" + UUID.randomUUID()), 10);
        // one batch takes the whole backlog, so the batch that dies holds these operations' events
        var relays = TestRelays.of(node);
        var oneBatch = relays.settings(1_000_000, properties.linger(), properties.relayLease());
        var died = new AtomicBoolean();
        doomed = relays.relay("relay-doomed", oneBatch, () -> dyingAfterItsFirstCommit(oneBatch, died));
        doomed.start();
        waiting().atMost(Duration.ofSeconds(20)).untilTrue(died);
        assertThat(count("SELECT count(*) - count(published_at) FROM outbox_event", ids)).isEqualTo(10);

        heir = relays.relay("relay-heir", properties);
        heir.start();
        waiting().atMost(Duration.ofSeconds(20)).until(() -> count("SELECT count(*) - count(published_at) FROM outbox_event",
                ids) == 0);

        List<String> wanted = ids.stream().map(OperationId::toString).toList();
        List<String> onTheTopic = TopicReader.readAll(TOPIC).stream().filter(record -> wanted.contains(record.key()))
                .map(record -> json.readTree(record.value()).get("eventId").asString()).toList();
        assertThat(onTheTopic).as("each event twice: the dead relay's batch and the heir's").hasSize(20);
        assertThat(onTheTopic.stream().distinct()).hasSize(10);
        waiting().atMost(Duration.ofSeconds(30)).until(() -> count("SELECT count(*) FROM activity_feed_entry", ids) == 10);
        waiting().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
                .until(() -> count("SELECT count(*) FROM activity_feed_entry", ids) == 10);
    }
}

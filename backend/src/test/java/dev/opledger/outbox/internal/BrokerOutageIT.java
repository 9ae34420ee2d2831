package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.node.kafka.EmbeddedBroker;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TopicReader;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kafka down does not stop the ledger: claims go on and their events wait in the outbox; when
 * the broker is back the relay publishes every one of them. A broker of this test's own, so it
 * can be stopped; the node's relay is stopped meanwhile.
 */
@EventsIntegrationTest
class BrokerOutageIT {

    private static final String TOPIC = "opledger.operation-events";

    @Autowired
    OutboxRelay nodesRelay;

    @Autowired
    EventsProperties properties;

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

    EmbeddedBroker broker;
    OutboxRelay relay;

    @BeforeEach
    void ownBrokerAndRelay() {
        nodesRelay.stop();
        broker = EmbeddedBroker.start();
        var kafka = new KafkaProperties();
        kafka.setBootstrapServers(List.of(broker.bootstrapServers()));
        relay = EventsConfiguration.relay("relay-outage", properties, kafka, transactions, election, rows, json,
                new SimpleMeterRegistry());
        relay.start();
    }

    @AfterEach
    void backToTheNodesRelay() {
        relay.stop();
        broker.close();
        nodesRelay.start();
    }

    private List<OperationId> claim(int count) {
        return Operations.claim(claims, new SubjectId("outage-" + UUID.randomUUID()), count);
    }

    private long unpublished(List<OperationId> ids) {
        return ids.stream().mapToLong(id -> jdbc.queryForObject(
                "SELECT count(*) - count(published_at) FROM outbox_event WHERE operation_id = ?", Long.class, id.value()))
                .sum();
    }

    private List<String> eventIdsInTheOutbox(List<OperationId> ids) {
        return ids.stream().flatMap(id -> jdbc.queryForList("SELECT event_id::text FROM outbox_event WHERE operation_id = ?",
                String.class, id.value()).stream()).toList();
    }

    @Test
    void whileTheBrokerIsDownClaimsGoOnAndTheirEventsArePublishedWhenItIsBack() {
        List<OperationId> before = claim(3);
        await().atMost(Duration.ofSeconds(30)).until(() -> unpublished(before) == 0);

        broker.stop();
        List<OperationId> during = claim(20);

        assertThat(jdbc.queryForObject("SELECT count(*) FROM operation WHERE operation_id = ANY(?::uuid[])", Long.class,
                "{" + String.join(",", during.stream().map(OperationId::toString).toList()) + "}")).isEqualTo(20);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> unpublished(during) == 20);
        assertThat(rows.backlog()).isGreaterThanOrEqualTo(20);

        broker.restart();

        await().atMost(Duration.ofSeconds(90)).until(() -> unpublished(during) == 0);
        List<String> wanted = during.stream().map(OperationId::toString).toList();
        List<String> published = TopicReader.readAll(broker.bootstrapServers(), TOPIC).stream()
                .filter(record -> wanted.contains(record.key()))
                .map(record -> json.readTree(record.value()).get("eventId").asString()).toList();
        // at least once: a batch Kafka committed while the database could not mark it is published again
        assertThat(published).containsAll(eventIdsInTheOutbox(during));
        assertThat(published.stream().distinct()).hasSize(20);
    }
}

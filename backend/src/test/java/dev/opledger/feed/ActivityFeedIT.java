package dev.opledger.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TestKafka;
import dev.opledger.testing.TopicReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The activity feed applies each event once, whatever Kafka delivers twice, and a record that is
 * not an event goes to the dead-letter topic with the reason while the partition goes on.
 */
@EventsIntegrationTest
class ActivityFeedIT {

    private static final String TOPIC = "opledger.operation-events";

    @Autowired
    ActivityFeedService feed;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    SubjectId subject;
    KafkaProducer<String, byte[]> producer;

    @BeforeEach
    void setUp() {
        subject = new SubjectId("feed-" + UUID.randomUUID());
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.shared().bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
    }

    @AfterEach
    void closeProducer() {
        producer.close();
    }

    private List<String> entries() {
        return feed.recent(subject, 50).stream().map(entry -> entry.sequence() + " " + entry.type()).toList();
    }

    private OperationId runToSuccess() {
        OperationId operationId = Operations.claim(claims, subject, 1).getFirst();
        LeasedOperation leased = lifecycle.lease("feed-node", 1000, Duration.ofSeconds(30)).stream()
                .filter(o -> o.operationId().equals(operationId)).findFirst().orElseThrow();
        assertThat(lifecycle.finishRun(leased.fence(), "feed-node", OperationStatus.SUCCEEDED, null)).isTrue();
        return operationId;
    }

    /** A well-formed event of a made-up operation of this subject, sent straight to the topic. */
    private OperationId sendEvent(int partition) throws Exception {
        var operationId = OperationId.random();
        String event = """
                {"eventId": "%s", "operationId": "%s", "subjectId": "%s", "type": "OperationAccepted", "sequence": 1,
                 "status": "ACCEPTED", "tool": null, "stepKey": null, "occurredAt": "%s", "commandType": "checkout"}
                """.formatted(UUID.randomUUID(), operationId, subject.value(), Instant.now());
        producer.send(new ProducerRecord<>(TOPIC, partition, operationId.toString(),
                event.getBytes(StandardCharsets.UTF_8))).get();
        return operationId;
    }

    @Test
    void anOperationsEventsReachItsSubjectsFeedNewestFirst() {
        runToSuccess();

        await().atMost(Duration.ofSeconds(30)).until(() -> entries().size() == 3);
        assertThat(entries()).containsExactly("3 OperationSucceeded", "2 OperationRunning", "1 OperationAccepted");
    }

    @Test
    void anEventDeliveredTwiceIsAppliedOnce() throws Exception {
        OperationId operationId = runToSuccess();
        await().atMost(Duration.ofSeconds(30)).until(() -> entries().size() == 3);
        ConsumerRecord<String, byte[]> published = TopicReader.readAll(TOPIC).stream()
                .filter(record -> record.key().equals(operationId.toString())).findFirst().orElseThrow();

        // what a relay that died between Kafka's commit and the database's would publish again
        producer.send(new ProducerRecord<>(TOPIC, published.partition(), published.key(), published.value(),
                published.headers())).get();
        OperationId after = sendEvent(published.partition());

        await().atMost(Duration.ofSeconds(30)).until(() -> feed.recent(subject, 50).stream()
                .anyMatch(entry -> entry.operationId().equals(after)));
        assertThat(feed.recent(subject, 50)).filteredOn(entry -> entry.operationId().equals(operationId))
                .extracting(entry -> entry.sequence() + " " + entry.type())
                .containsExactly("3 OperationSucceeded", "2 OperationRunning", "1 OperationAccepted");
    }

    @Test
    void anEventTheSchemaAcceptsButWithNoSuchDateGoesToTheDeadLetterTopicAndTheFeedGoesOn() throws Exception {
        String key = "no-such-date-" + UUID.randomUUID();
        // the schema's occurredAt pattern lets month 13 through; reading it must not stop the feed
        String event = """
                {"eventId": "%s", "operationId": "%s", "subjectId": "%s", "type": "OperationAccepted", "sequence": 1,
                 "status": "ACCEPTED", "tool": null, "stepKey": null, "occurredAt": "2026-13-45T00:00:00Z",
                 "commandType": "checkout"}
                """.formatted(UUID.randomUUID(), UUID.randomUUID(), subject.value());
        producer.send(new ProducerRecord<>(TOPIC, 0, key, event.getBytes(StandardCharsets.UTF_8))).get();
        OperationId after = sendEvent(0);

        await().atMost(Duration.ofSeconds(30)).until(() -> feed.recent(subject, 50).stream()
                .anyMatch(entry -> entry.operationId().equals(after)));
        assertThat(feed.recent(subject, 50)).hasSize(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> TopicReader.readAll(TOPIC + ".dlt").stream()
                .anyMatch(record -> record.key().equals(key)));
    }

    @Test
    void aRecordThatIsNotAnEventGoesToTheDeadLetterTopicWithTheReasonAndThePartitionGoesOn() throws Exception {
        String key = "not-an-event-" + UUID.randomUUID();
        producer.send(new ProducerRecord<>(TOPIC, 0, key, "{not json".getBytes(StandardCharsets.UTF_8))).get();
        producer.send(new ProducerRecord<>(TOPIC, 0, key + "-b",
                "{\"type\":\"OperationAccepted\"}".getBytes(StandardCharsets.UTF_8))).get();
        OperationId after = sendEvent(0);

        await().atMost(Duration.ofSeconds(30)).until(() -> feed.recent(subject, 50).stream()
                .anyMatch(entry -> entry.operationId().equals(after)));
        await().atMost(Duration.ofSeconds(10)).until(() -> TopicReader.readAll(TOPIC + ".dlt").stream()
                .filter(record -> record.key().startsWith(key)).count() == 2);
        List<ConsumerRecord<String, byte[]>> letters = TopicReader.readAll(TOPIC + ".dlt").stream()
                .filter(record -> record.key().startsWith(key)).toList();
        assertThat(letters).extracting(record -> new String(record.headers().lastHeader("dlt_reason").value(),
                StandardCharsets.UTF_8))
                .satisfiesExactly(
                        reason -> assertThat(reason).startsWith("the value is not JSON"),
                        reason -> assertThat(reason).startsWith("the value is not an operation event").contains("eventId"));
        assertThat(letters.getFirst().value()).asString(StandardCharsets.UTF_8).isEqualTo("{not json");
        assertThat(new String(letters.getFirst().headers().lastHeader("dlt_original_topic").value(), StandardCharsets.UTF_8))
                .isEqualTo(TOPIC);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM activity_feed_entry WHERE subject_id = ?", Long.class,
                subject.value())).isEqualTo(1);
    }
}

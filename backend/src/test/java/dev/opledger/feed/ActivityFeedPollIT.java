package dev.opledger.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.operation.SubjectId;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
 * A poll's events are applied all or none (issue 13: one transaction per poll): a database failure
 * in the middle of the poll leaves none of them in the feed, and once it clears each is there once,
 * in order per operation; events the poll brings twice are applied once.
 *
 * <p>Each test's events are published in one Kafka transaction to one partition, so the feed's
 * read_committed consumer sees them all at once, in one poll (they are a few hundred bytes, far
 * below a fetch's limits and max.poll.records).
 */
@EventsIntegrationTest
class ActivityFeedPollIT {

    private static final String TOPIC = "opledger.operation-events";
    /** An operation's events by sequence: type, status, and what the schema requires of that type. */
    private static final String[][] LIFE = {
            {"OperationAccepted", "ACCEPTED", ", \"commandType\": \"checkout\""},
            {"OperationRunning", "RUNNING", ", \"runCount\": 1"},
            {"OperationSucceeded", "SUCCEEDED", ""}};

    @Autowired
    JdbcTemplate jdbc;

    SubjectId subject;
    KafkaProducer<String, byte[]> producer;

    /** One event as the relay publishes it. */
    record Event(UUID eventId, UUID operationId, int sequence, Instant occurredAt) {
    }

    @BeforeEach
    void setUp() {
        subject = new SubjectId("feed-poll-" + UUID.randomUUID());
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.shared().bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "feed-poll-it-" + UUID.randomUUID(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
        producer.initTransactions();
    }

    @AfterEach
    void tearDown() {
        producer.close();
        jdbc.execute("DROP TRIGGER IF EXISTS feed_poll_it_fail ON activity_feed_entry");
        jdbc.execute("DROP FUNCTION IF EXISTS feed_poll_it_fail()");
        jdbc.execute("DROP TABLE IF EXISTS feed_poll_it_failing");
        jdbc.execute("DROP SEQUENCE IF EXISTS feed_poll_it_attempts");
    }

    /** Three events (accepted, running, succeeded) of each of {@code operations} new operations, operation after operation. */
    private List<Event> lives(int operations) {
        List<Event> events = new ArrayList<>();
        Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        for (int operation = 0; operation < operations; operation++) {
            UUID operationId = UUID.randomUUID();
            for (int sequence = 1; sequence <= LIFE.length; sequence++) {
                events.add(new Event(UUID.randomUUID(), operationId, sequence, at.plusMillis(events.size())));
            }
        }
        return events;
    }

    /** All of them in one Kafka transaction, to partition 0, in this order. */
    private void publishTogether(List<Event> events) {
        producer.beginTransaction();
        for (Event event : events) {
            String value = """
                    {"eventId": "%s", "operationId": "%s", "subjectId": "%s", "type": "%s", "sequence": %d,
                     "status": "%s", "tool": null, "stepKey": null, "occurredAt": "%s"%s}
                    """.formatted(event.eventId(), event.operationId(), subject.value(), LIFE[event.sequence() - 1][0],
                    event.sequence(), LIFE[event.sequence() - 1][1], event.occurredAt(), LIFE[event.sequence() - 1][2]);
            producer.send(new ProducerRecord<>(TOPIC, 0, event.operationId().toString(),
                    value.getBytes(StandardCharsets.UTF_8)));
        }
        producer.commitTransaction();
    }

    /**
     * Publishes one more operation's events, in a later transaction, and waits for them: the feed has
     * then applied everything published before (one partition, read in order), duplicates included.
     */
    private List<Event> publishAfterAndAwait() {
        List<Event> last = lives(1);
        publishTogether(last);
        List<String> expected = asWritten(last);
        await().atMost(Duration.ofSeconds(30)).until(() -> written().containsAll(expected));
        return last;
    }

    /** The subject's entries in the order they were written: "operationId sequence eventId". */
    private List<String> written() {
        return jdbc.queryForList("SELECT operation_id || ' ' || sequence || ' ' || event_id FROM activity_feed_entry "
                + "WHERE subject_id = ? ORDER BY id", String.class, subject.value());
    }

    private static List<String> asWritten(List<Event> events) {
        return events.stream().map(event -> event.operationId() + " " + event.sequence() + " " + event.eventId()).toList();
    }

    /** The events' entries, by eventId (the feed's dedup record): each event's at most once. */
    private long consumed(List<Event> events) {
        return jdbc.queryForObject("SELECT count(*) FROM activity_feed_entry WHERE event_id::text = ANY (?)",
                Long.class, (Object) events.stream().map(event -> event.eventId().toString()).toArray(String[]::new));
    }

    @Test
    void aDatabaseFailureInThePollsMiddleAppliesNoneOfItThenEachOnceInOrder() {
        List<Event> events = lives(3);
        Event middle = events.get(4); // the second operation's RUNNING: four of the poll's events are written before it
        // fails the entry of `middle` while its row is in feed_poll_it_failing, counting the attempts (a sequence
        // is not rolled back with the transaction that failed)
        jdbc.execute("CREATE SEQUENCE feed_poll_it_attempts");
        jdbc.execute("CREATE TABLE feed_poll_it_failing (event_id uuid PRIMARY KEY)");
        jdbc.update("INSERT INTO feed_poll_it_failing VALUES (?)", middle.eventId());
        jdbc.execute("""
                CREATE FUNCTION feed_poll_it_fail() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF EXISTS (SELECT 1 FROM feed_poll_it_failing WHERE event_id = NEW.event_id) THEN
                    PERFORM nextval('feed_poll_it_attempts');
                    RAISE EXCEPTION 'ActivityFeedPollIT: the entry of % fails', NEW.event_id;
                  END IF;
                  RETURN NEW;
                END $$""");
        jdbc.execute("CREATE TRIGGER feed_poll_it_fail BEFORE INSERT ON activity_feed_entry FOR EACH ROW "
                + "EXECUTE FUNCTION feed_poll_it_fail()");

        publishTogether(events);

        // the poll failed, was read again and failed again: its four events before `middle` are not in the feed
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM feed_poll_it_attempts", Long.class), n -> n >= 2);
        assertThat(written()).isEmpty();
        assertThat(consumed(events)).isZero();

        jdbc.update("DELETE FROM feed_poll_it_failing");

        List<Event> all = new ArrayList<>(events);
        all.addAll(publishAfterAndAwait());
        // each event once (none lost, none twice), written in the poll's order, so each operation's in its sequence's
        assertThat(written()).containsExactlyElementsOf(asWritten(all));
        assertThat(consumed(events)).isEqualTo(events.size());
    }

    @Test
    void aPollBringingEventsTwiceAppliesEachOnce() {
        List<Event> applied = lives(1);
        publishTogether(applied);
        await().atMost(Duration.ofSeconds(30)).until(() -> written().size() == applied.size());

        // one poll: the first operation's events again (redelivered, as after a rebalance), a second
        // operation's, and these again
        List<Event> fresh = lives(1);
        List<Event> poll = new ArrayList<>(applied);
        poll.addAll(fresh);
        poll.addAll(fresh);
        publishTogether(poll);

        List<Event> once = new ArrayList<>(applied);
        once.addAll(fresh);
        once.addAll(publishAfterAndAwait());
        assertThat(written()).containsExactlyElementsOf(asWritten(once));
        assertThat(consumed(once)).isEqualTo(once.size());
    }
}

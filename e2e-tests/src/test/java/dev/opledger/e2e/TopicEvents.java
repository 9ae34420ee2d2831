package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.EventSchema;
import dev.opledger.testing.TopicReader;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The events topic as a consumer reads it ({@link TopicReader}: read_committed, from the start),
 * checked against the outbox the nodes committed.
 */
final class TopicEvents {

    static final String TOPIC = "opledger.operation-events";
    private static final String FEED_GROUP = "opledger-activity-feed";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One record of the topic. */
    record Event(int partition, long offset, String key, String eventId, String operationId, int sequence) {
    }

    private final List<Event> events;

    private TopicEvents(List<Event> events) {
        this.events = events;
    }

    /** Everything committed to the topic now; each record checked against the published schema. */
    static TopicEvents read(String bootstrapServers) {
        return new TopicEvents(TopicReader.readAll(bootstrapServers, TOPIC).stream().map(record -> {
            JsonNode event = JSON.readTree(record.value());
            assertThat(EventSchema.errors(event)).as(event.toString()).isEmpty();
            return new Event(record.partition(), record.offset(), record.key(), event.get("eventId").asString(),
                    event.get("operationId").asString(), event.get("sequence").asInt());
        }).toList());
    }

    int records() {
        return events.size();
    }

    /** How often each eventId is on the topic. */
    Map<String, Long> copiesByEventId() {
        return events.stream().collect(Collectors.groupingBy(Event::eventId, Collectors.counting()));
    }

    /** Records beyond each event's first: what an at-least-once relay published again. */
    long duplicates() {
        return events.size() - copiesByEventId().size();
    }

    /**
     * What must hold whatever happened to the broker or the relay: every outbox row is on the topic
     * (at least once) and nothing else is, each keyed by its operationId, and each operation's
     * events, first copies in topic order, are its sequence 1..n without gaps.
     */
    void assertEveryRowPublished(List<Outbox.Row> rows) {
        Map<String, Outbox.Row> byEventId = rows.stream().collect(Collectors.toMap(Outbox.Row::eventId,
                Function.identity()));
        assertThat(copiesByEventId().keySet()).as("eventIds on the topic").containsExactlyInAnyOrderElementsOf(
                byEventId.keySet());
        assertThat(events).allSatisfy(event -> {
            assertThat(event.key()).isEqualTo(event.operationId());
            assertThat(event.operationId()).isEqualTo(byEventId.get(event.eventId()).operationId());
            assertThat(event.sequence()).isEqualTo(byEventId.get(event.eventId()).sequence());
        });
        Map<String, Long> rowsPerOperation = rows.stream().collect(Collectors.groupingBy(Outbox.Row::operationId,
                Collectors.counting()));
        Map<String, List<Integer>> sequences = events.stream()
                .sorted(Comparator.comparingInt(Event::partition).thenComparingLong(Event::offset))
                .collect(Collectors.groupingBy(Event::operationId, TreeMap::new,
                        Collectors.mapping(Event::sequence, Collectors.toList())));
        assertThat(sequences.keySet()).containsExactlyInAnyOrderElementsOf(rowsPerOperation.keySet());
        sequences.forEach((operationId, published) -> assertThat(published.stream().distinct().toList())
                .as("the sequences of operation %s in the order of the topic", operationId)
                .containsExactlyElementsOf(IntStream.rangeClosed(1, rowsPerOperation.get(operationId).intValue())
                        .boxed().toList()));
        assertThat(events.stream().collect(Collectors.groupingBy(Event::operationId,
                Collectors.mapping(Event::partition, Collectors.toSet()))).values())
                .as("one partition per operation").allSatisfy(partitions -> assertThat(partitions).hasSize(1));
    }

    /**
     * Whether the activity feed's group has committed, on every partition, an offset past the
     * last record read here: it has applied (or skipped as a duplicate) every one of them.
     */
    boolean feedHasConsumedAll(String bootstrapServers) throws Exception {
        Map<TopicPartition, Long> last = events.stream().collect(Collectors.toMap(
                event -> new TopicPartition(TOPIC, event.partition()), Event::offset, Math::max));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(FEED_GROUP)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            return last.entrySet().stream().allMatch(partition -> {
                OffsetAndMetadata offset = committed.get(partition.getKey());
                return offset != null && offset.offset() > partition.getValue();
            });
        }
    }
}

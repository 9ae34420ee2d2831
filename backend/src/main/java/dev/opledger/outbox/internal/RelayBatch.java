package dev.opledger.outbox.internal;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationSpans;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One batch of the elected relay, in one database transaction: renew the election (which locks
 * its row: no takeover until this transaction ends, and no other batch) and read the next
 * unpublished rows from the watermark, in one statement; publish them in one Kafka transaction,
 * mark them published under the epoch, move the watermark on. If anything fails the database
 * transaction rolls back and the rows stay unpublished; if Kafka committed before that, the
 * events are published again by the next batch (consumers dedupe on eventId).
 */
final class RelayBatch {

    /** What a batch did. */
    sealed interface Result {
        /** The events published (none when the outbox had none). */
        record Published(List<OutboxEvent> events) implements Result {
        }

        /** The election was lost (expired and taken over): this relay must stop publishing. */
        record Lost() implements Result {
        }
    }

    private final TransactionTemplate transactions;
    private final OutboxRows rows;
    private final CloudEventRecords records;
    private final EventsProperties properties;
    private final OperationSpans spans;

    RelayBatch(TransactionTemplate transactions, OutboxRows rows, CloudEventRecords records, EventsProperties properties,
            OperationSpans spans) {
        this.spans = spans;
        this.transactions = transactions;
        this.rows = rows;
        this.records = records;
        this.properties = properties;
    }

    Result publishNext(long epoch, Producer<String, byte[]> producer) {
        return transactions.execute(status -> {
            // A relay stalled in the middle of a batch (GC pause, SIGSTOP) would hold the election's
            // row lock: PostgreSQL ends its session after the lease, so another node can take over.
            Optional<List<OutboxEvent>> renewed = rows.renewAndReadUnpublished(epoch, properties.relayLease(),
                    properties.relayLease(), properties.batchSize());
            if (renewed.isEmpty()) {
                return new Result.Lost();
            }
            List<OutboxEvent> events = renewed.get();
            if (!events.isEmpty()) {
                publish(producer, events);
                rows.markPublished(events.stream().map(OutboxEvent::id).toList(), epoch);
            }
            rows.advanceWatermark(epoch);
            return new Result.Published(events);
        });
    }

    private void publish(Producer<String, byte[]> producer, List<OutboxEvent> events) {
        producer.beginTransaction();
        try {
            for (OutboxEvent event : events) {
                // a span per event, tagged with its operationId, a child of the span that wrote the row
                // (its stored context, if valid); its own context rides in the record's headers
                Map<String, String> writer = StoredTraceContext.parse(event.traceContext())
                        .map(StoredTraceContext::fields).orElse(Map.of());
                try (var ignored = spans.startChildOf(writer, "opledger.outbox.publish", new OperationId(event.operationId()),
                        "opledger.event_type", String.valueOf(event.type()))) {
                    var record = records.of(event);
                    spans.inject((name, value) -> record.headers().add(name, value.getBytes(StandardCharsets.UTF_8)));
                    producer.send(record);
                }
            }
            producer.commitTransaction();
        } catch (ProducerFencedException e) {
            throw e; // another relay's producer took the transactional id: nothing to abort
        } catch (KafkaException e) {
            abortQuietly(producer, e);
            throw e;
        }
    }

    private static void abortQuietly(Producer<String, byte[]> producer, KafkaException cause) {
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            cause.addSuppressed(e);
        }
    }

    static Duration lag(OutboxEvent event) {
        return Duration.between(event.occurredAt(), Instant.now());
    }
}

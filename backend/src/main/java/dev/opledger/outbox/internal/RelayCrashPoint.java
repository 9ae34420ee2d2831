package dev.opledger.outbox.internal;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Test-only fault injection for the relay, as {@code effect}'s crash points are for the workers:
 * with {@code opledger.test.crash-at=relay-after-kafka-commit@<n>} the node halts (status 137, as
 * SIGKILL would stop it: no shutdown, the election not given up) right after Kafka committed the
 * batch that brought this relay's published records to {@code n} or more, before the database
 * marks that batch published. The next relay publishes the batch again: the duplicates the
 * consumers must absorb. Unset in every real configuration; other points of the property are the
 * workers'.
 */
final class RelayCrashPoint {

    private static final Logger log = LoggerFactory.getLogger(RelayCrashPoint.class);
    private static final String POINT = "relay-after-kafka-commit@";

    private final long afterRecords;
    private final AtomicLong committed = new AtomicLong();

    private RelayCrashPoint(long afterRecords) {
        this.afterRecords = afterRecords;
    }

    /** The point {@code crashAt} names for the relay, or null when it names none (or another one). */
    static @Nullable RelayCrashPoint of(String crashAt) {
        String target = crashAt.trim().toLowerCase(Locale.ROOT);
        if (!target.startsWith(POINT)) {
            return null;
        }
        long records;
        try {
            records = Long.parseLong(target.substring(POINT.length()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("opledger.test.crash-at=" + POINT + "<n> needs a number of records, not "
                    + crashAt, e);
        }
        log.warn("CRASH INJECTION: this node halts after the relay's Kafka commit that reaches {} records", records);
        return new RelayCrashPoint(records);
    }

    /** A producer that counts what it sends in a transaction and halts the JVM after the commit that reaches the count. */
    Producer<String, byte[]> producer(Map<String, Object> settings) {
        return new KafkaProducer<>(settings) {
            private long inTransaction;

            @Override
            public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
                inTransaction++;
                return super.send(record, callback);
            }

            @Override
            public void commitTransaction() {
                long records = inTransaction;
                inTransaction = 0;
                super.commitTransaction();
                if (committed.addAndGet(records) >= afterRecords) {
                    System.err.println("CRASH INJECTION: halting after the relay's Kafka commit of " + records
                            + " records (" + committed.get() + " in all), before the database marks them published");
                    Runtime.getRuntime().halt(137);
                }
            }

            @Override
            public void abortTransaction() {
                inTransaction = 0;
                super.abortTransaction();
            }
        };
    }
}

package dev.opledger.feed.internal;

import dev.opledger.operation.OperationMdc;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The feed's consumer, on one thread: polls the events topic (read_committed, offsets committed
 * by hand after the records were applied), applies each event once, and sends a record it cannot
 * read to the dead-letter topic with the reason instead of stopping at it. When the database
 * fails, the partition goes back to the failed record and is read again on the next poll.
 *
 * <p>A poll's records that are all events are applied in one transaction (one commit for the
 * poll, not one per event; all of them or none); a poll with a record that is not an event is
 * applied record by record, as the dead-letter topic needs.
 */
final class FeedConsumer implements SmartLifecycle {

    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(FeedConsumer.class);

    private final String topic;
    private final String deadLetterTopic;
    private final Supplier<Consumer<String, byte[]>> consumers;
    private final Supplier<Producer<String, byte[]>> deadLetterProducers;
    private final FeedEvents events;
    private final FeedEntries entries;
    private final Runnable deadLetterTopicReady;
    private volatile boolean running;
    private volatile @Nullable Consumer<String, byte[]> consumer;
    private volatile @Nullable Thread thread;
    private volatile @Nullable Producer<String, byte[]> deadLetters;

    FeedConsumer(String topic, String deadLetterTopic, Supplier<Consumer<String, byte[]>> consumers,
            Supplier<Producer<String, byte[]>> deadLetterProducers, FeedEvents events, FeedEntries entries, Runnable deadLetterTopicReady) {
        this.topic = topic;
        this.deadLetterTopic = deadLetterTopic;
        this.consumers = consumers;
        this.deadLetterProducers = deadLetterProducers;
        this.events = events;
        this.entries = entries;
        this.deadLetterTopicReady = deadLetterTopicReady;
    }

    /** Also after a stop: a test's cached context is stopped while another one runs, then started again. */
    @Override
    public synchronized void start() {
        running = true;
        deadLetters = deadLetterProducers.get();
        Consumer<String, byte[]> created = consumers.get();
        consumer = created;
        thread = Thread.ofPlatform().name("activity-feed").daemon().start(() -> run(created));
    }

    @Override
    public void stop() {
        running = false;
        Consumer<String, byte[]> current = consumer;
        Thread running = thread;
        if (current != null && running != null) {
            current.wakeup();
            try {
                running.join(Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        thread = null;
        Producer<String, byte[]> producer = deadLetters;
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
            deadLetters = null;
        }
    }

    @Override
    public boolean isRunning() {
        return thread != null;
    }

    private void run(Consumer<String, byte[]> consumer) {
        try (consumer) {
            deadLetterTopicReady.run();
            consumer.subscribe(List.of(topic));
            while (running) {
                try {
                    ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(500));
                    Map<TopicPartition, OffsetAndMetadata> done = new HashMap<>();
                    boolean failed = false;
                    List<FeedEvent> all = readAll(records);
                    if (all != null) {
                        failed = !applyAll(consumer, records, all, done);
                    } else {
                        for (TopicPartition partition : records.partitions()) {
                            failed |= !applyUntilFailure(consumer, partition, records.records(partition), done);
                        }
                    }
                    if (!done.isEmpty()) {
                        consumer.commitSync(done);
                    }
                    if (failed) {
                        Thread.sleep(RETRY_PAUSE);
                    }
                } catch (WakeupException e) {
                    // stop() woke the poll
                } catch (KafkaException e) {
                    log.warn("activity feed: Kafka failed ({}); polling again", e.toString());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The poll's records as events, in the poll's order; null when one of them is not an event. */
    private @Nullable List<FeedEvent> readAll(ConsumerRecords<String, byte[]> records) {
        List<FeedEvent> all = new ArrayList<>(records.count());
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                all.add(events.read(record.value()));
            } catch (FeedEvents.UnreadableEventException e) {
                return null;
            }
        }
        return all;
    }

    /** False when they could not be applied: nothing was, and every partition is back at its first record. */
    private boolean applyAll(Consumer<String, byte[]> consumer, ConsumerRecords<String, byte[]> records,
            List<FeedEvent> all, Map<TopicPartition, OffsetAndMetadata> done) {
        if (all.isEmpty()) {
            return true;
        }
        try {
            entries.applyAll(all);
        } catch (RuntimeException e) {
            log.warn("activity feed: cannot apply {} records yet ({}); reading them again", all.size(), e.toString());
            for (TopicPartition partition : records.partitions()) {
                consumer.seek(partition, records.records(partition).getFirst().offset());
            }
            return false;
        }
        for (TopicPartition partition : records.partitions()) {
            done.put(partition, new OffsetAndMetadata(records.records(partition).getLast().offset() + 1));
        }
        return true;
    }

    /** False when a record could not be applied: the partition is back at it, for the next poll. */
    private boolean applyUntilFailure(Consumer<String, byte[]> consumer, TopicPartition partition,
            List<ConsumerRecord<String, byte[]>> records, Map<TopicPartition, OffsetAndMetadata> done) {
        for (ConsumerRecord<String, byte[]> record : records) {
            try (var ignored = OperationMdc.put(record.key())) {
                apply(record);
                done.put(partition, new OffsetAndMetadata(record.offset() + 1));
            } catch (RuntimeException e) {
                // the database or the dead-letter topic is down: nothing of this record was applied
                log.warn("activity feed: cannot apply {}@{} yet ({}); reading it again", partition, record.offset(),
                        e.toString());
                consumer.seek(partition, record.offset());
                return false;
            }
        }
        return true;
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        FeedEvent event;
        try {
            event = events.read(record.value());
        } catch (FeedEvents.UnreadableEventException e) {
            deadLetter(record, e.getMessage());
            return;
        }
        entries.apply(event);
    }

    /** Sends the record on, unchanged, with why and where from; waits, so the offset is committed only after. */
    private void deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        log.warn("activity feed: {}-{}@{} is not an event, sent to {}: {}", record.topic(), record.partition(),
                record.offset(), deadLetterTopic, reason);
        var letter = new ProducerRecord<>(deadLetterTopic, null, record.key(), record.value(),
                new RecordHeaders(record.headers().toArray()));
        letter.headers().add("dlt_reason", reason.getBytes(StandardCharsets.UTF_8));
        letter.headers().add("dlt_original_topic", record.topic().getBytes(StandardCharsets.UTF_8));
        letter.headers().add("dlt_original_partition", Integer.toString(record.partition()).getBytes(StandardCharsets.UTF_8));
        letter.headers().add("dlt_original_offset", Long.toString(record.offset()).getBytes(StandardCharsets.UTF_8));
        Producer<String, byte[]> producer = deadLetters;
        if (producer == null) {
            throw new KafkaException("the activity feed is stopping");
        }
        try {
            producer.send(letter).get();
        } catch (ExecutionException e) {
            throw new KafkaException("cannot send to the dead-letter topic " + deadLetterTopic, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted sending to the dead-letter topic", e);
        }
    }
}

package dev.opledger.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a topic as a consumer of the events would: {@code isolation.level=read_committed}, so
 * records of an aborted or open Kafka transaction are never seen. {@link #readAll} reads every
 * partition from the start to its last committed offset, once that has stopped moving.
 */
public final class TopicReader {

    private static final int SETTLE_CHECKS = 3;
    private static final Duration SETTLE_INTERVAL = Duration.ofMillis(300);

    private TopicReader() {
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        return readAll(TestKafka.shared().bootstrapServers(), topic);
    }

    /** As {@link #readAll(String)}, from another broker than the test JVM's. */
    public static List<ConsumerRecord<String, byte[]>> readAll(String bootstrapServers, String topic) {
        try (var consumer = new KafkaConsumer<String, byte[]>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            int stableChecks = 0;
            // A producer's commitTransaction returns once the coordinator has decided; the commit
            // markers reach the partitions just after, and until then a read_committed end offset
            // stops before the last transaction. So a test that saw the relay mark its rows
            // published reads on until the end offsets have not moved for a while.
            // (a topic that never stops moving is read for at most the deadline)
            while (stableChecks < SETTLE_CHECKS && System.nanoTime() < deadline) {
                Map<TopicPartition, Long> target = end;
                while (partitions.stream().anyMatch(partition -> consumer.position(partition) < target.get(partition))) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("could not read " + topic + " up to " + target + " in 30 s");
                    }
                    consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                }
                sleep(SETTLE_INTERVAL);
                Map<TopicPartition, Long> now = consumer.endOffsets(partitions, Duration.ofSeconds(10));
                stableChecks = now.equals(end) ? stableChecks + 1 : 0;
                end = now;
            }
            return records;
        }
    }
}

package dev.opledger.feed.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The feed's consumer, on nodes with both {@code opledger.events.enabled} and {@code opledger.feed.enabled} (defaults). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = {"opledger.events.enabled", "opledger.feed.enabled"}, matchIfMissing = true)
class FeedConfiguration {

    private static final Logger log = LoggerFactory.getLogger(FeedConfiguration.class);

    @Bean
    FeedConsumer feedConsumer(FeedProperties properties, KafkaProperties kafka, FeedEntries entries,
            @Value("${opledger.events.topic:opledger.operation-events}") String topic) {
        String deadLetterTopic = properties.deadLetterTopic() == null ? topic + ".dlt" : properties.deadLetterTopic();
        Map<String, Object> consumer = new HashMap<>(kafka.buildConsumerProperties());
        consumer.put(ConsumerConfig.GROUP_ID_CONFIG, properties.groupId());
        consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        Map<String, Object> producer = new HashMap<>(kafka.buildProducerProperties());
        producer.put(ProducerConfig.ACKS_CONFIG, "all");
        producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        Map<String, Object> admin = kafka.buildAdminProperties();
        return new FeedConsumer(topic, deadLetterTopic, () -> new KafkaConsumer<>(consumer), () -> new KafkaProducer<>(producer),
                new FeedEvents(), entries, () -> ensureTopic(admin, deadLetterTopic));
    }

    private static void ensureTopic(Map<String, Object> settings, String topic) {
        try (Admin admin = Admin.create(settings)) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty()))).all().get(10, TimeUnit.SECONDS);
            log.info("created the dead-letter topic {}", topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                log.warn("cannot create the dead-letter topic {} ({}); sending to it will retry", topic, e.getCause().toString());
            }
        } catch (TimeoutException e) {
            log.warn("cannot reach Kafka to create the dead-letter topic {}", topic);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

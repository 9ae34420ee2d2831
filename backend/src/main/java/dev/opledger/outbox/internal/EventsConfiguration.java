package dev.opledger.outbox.internal;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import dev.opledger.operation.OperationSpans;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * With {@code opledger.events.enabled} (the default; the test profile turns it off): this node's
 * relay, and the outbox's metrics — {@code opledger.outbox.backlog} (unpublished rows),
 * {@code opledger.outbox.lag} (seconds since the oldest unpublished event), and the relay's
 * {@code opledger.outbox.published} (rate) and {@code opledger.outbox.publish.lag}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "opledger.events.enabled", matchIfMissing = true)
class EventsConfiguration {

    @Bean
    OutboxRelay outboxRelay(EventsProperties properties, KafkaProperties kafka,
            PlatformTransactionManager transactionManager, RelayElection election, OutboxRows rows, JsonMapper json,
            MeterRegistry meters, @Value("${opledger.test.crash-at:}") String crashAt, OperationSpans spans) {
        Gauge.builder("opledger.outbox.backlog", rows, OutboxRows::backlog).description("outbox rows not yet published")
                .register(meters);
        Gauge.builder("opledger.outbox.lag", rows, OutboxRows::lagSeconds).baseUnit("seconds")
                .description("age of the oldest unpublished event").register(meters);
        String node = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
        RelayCrashPoint crash = RelayCrashPoint.of(crashAt);
        if (crash != null) {
            return relay(node, properties, kafka, () -> initialised(crash.producer(producerSettings(kafka, properties))),
                    transactionManager, election, rows, json, meters, spans);
        }
        return relay(node, properties, kafka, () -> producer(kafka, properties), transactionManager, election, rows,
                json, meters, spans);
    }

    /** A relay named {@code node}; the bean's, or another one in a test. */
    static OutboxRelay relay(String node, EventsProperties properties, KafkaProperties kafka,
            PlatformTransactionManager transactionManager, RelayElection election, OutboxRows rows, JsonMapper json,
            MeterRegistry meters) {
        return relay(node, properties, kafka, () -> producer(kafka, properties), transactionManager, election, rows,
                json, meters);
    }

    /** As above, with the relay's producers made by {@code producers} (initialised for transactions). */
    static OutboxRelay relay(String node, EventsProperties properties, KafkaProperties kafka,
            Supplier<Producer<String, byte[]>> producers, PlatformTransactionManager transactionManager,
            RelayElection election, OutboxRows rows, JsonMapper json, MeterRegistry meters) {
        return relay(node, properties, kafka, producers, transactionManager, election, rows, json, meters,
                OperationSpans.none());
    }

    /** As above, each event published in a span of its own whose trace context its record carries. */
    static OutboxRelay relay(String node, EventsProperties properties, KafkaProperties kafka,
            Supplier<Producer<String, byte[]>> producers, PlatformTransactionManager transactionManager,
            RelayElection election, OutboxRows rows, JsonMapper json, MeterRegistry meters, OperationSpans spans) {
        var batches = new RelayBatch(new TransactionTemplate(transactionManager), rows,
                new CloudEventRecords(json, properties.topic(), properties.source()), properties, spans);
        return new OutboxRelay(node, properties, kafka.buildAdminProperties(), producers, election, batches, rows, meters);
    }

    /**
     * Idempotent and transactional, with one transactional id for every node's relay: starting
     * it ({@code initTransactions}) aborts whatever an earlier relay left open and fences that
     * relay's producer inside Kafka, as the election's epoch fences its marks in PostgreSQL.
     */
    static Producer<String, byte[]> producer(KafkaProperties kafka, EventsProperties properties) {
        return initialised(new KafkaProducer<>(producerSettings(kafka, properties)));
    }

    private static Producer<String, byte[]> initialised(Producer<String, byte[]> producer) {
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close();
            throw e;
        }
        return producer;
    }

    static Map<String, Object> producerSettings(KafkaProperties kafka, EventsProperties properties) {
        Map<String, Object> settings = new HashMap<>(kafka.buildProducerProperties());
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, properties.transactionalId());
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        settings.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        settings.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return settings;
    }
}

package dev.opledger.outbox.internal;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import tools.jackson.databind.json.JsonMapper;

/**
 * Relays of a test's own, made of the node's parts (its database, election, rows and broker), with
 * settings of the test's choosing; the test stops the node's relay while they run.
 */
record TestRelays(EventsProperties nodeSettings, KafkaProperties kafka, PlatformTransactionManager transactions,
        RelayElection election, OutboxRows rows, JsonMapper json) {

    static TestRelays of(ApplicationContext node) {
        return new TestRelays(node.getBean(EventsProperties.class), node.getBean(KafkaProperties.class),
                node.getBean(PlatformTransactionManager.class), node.getBean(RelayElection.class),
                node.getBean(OutboxRows.class), node.getBean(JsonMapper.class));
    }

    /** The node's settings, but for these. */
    EventsProperties settings(int batchSize, Duration linger, Duration relayLease) {
        var node = nodeSettings;
        return new EventsProperties(node.enabled(), false, node.topic(), node.partitions(), node.source(),
                node.transactionalId(), batchSize, node.pollInterval(), linger, relayLease, node.retention(),
                node.purgeInterval());
    }

    OutboxRelay relay(String name, EventsProperties settings) {
        return EventsConfiguration.relay(name, settings, kafka, transactions, election, rows, json,
                new SimpleMeterRegistry());
    }

    /** With producers of the test's making (initialised for transactions). */
    OutboxRelay relay(String name, EventsProperties settings, Supplier<Producer<String, byte[]>> producers) {
        return EventsConfiguration.relay(name, settings, kafka, producers, transactions, election, rows, json,
                new SimpleMeterRegistry());
    }
}

package dev.opledger.e2e;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.opledger.node.kafka.EmbeddedBroker;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Child nodes with events on (the other e2e tests run theirs without): their relay publishes to
 * the test's own broker, their activity feed consumes from it.
 */
final class EventNodes {

    /** The election's lease: a dead relay is taken over within about 1.25 of it. */
    static final String RELAY_LEASE = "3s";

    private EventNodes() {
    }

    /**
     * A broker in the test JVM, which the test can stop and start again on its port and log. Its
     * logs at WARN, as a node's are: at INFO it writes a thousand lines a test (a Spring context
     * started in the same JVM later sets the levels it configures).
     */
    static EmbeddedBroker startBroker() {
        for (String name : List.of("kafka", "org.apache.kafka", "state.change.logger")) {
            if (LoggerFactory.getLogger(name) instanceof Logger logger) {
                logger.setLevel(Level.WARN);
            }
        }
        return EmbeddedBroker.start();
    }

    /** A node's arguments for a relay and a feed on the broker at {@code bootstrapServers}. */
    static List<String> arguments(String bootstrapServers) {
        return List.of(
                "--opledger.events.enabled=true",
                "--spring.kafka.bootstrap-servers=" + bootstrapServers,
                "--opledger.events.relay-lease=" + RELAY_LEASE,
                // a feed consumer whose node died gives its partitions up after 6 s (the broker's
                // minimum), not the default 45 s
                "--spring.kafka.consumer.properties[session.timeout.ms]=6000",
                "--spring.kafka.consumer.properties[heartbeat.interval.ms]=1000");
    }
}

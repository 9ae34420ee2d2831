package dev.opledger.e2e;

import java.util.List;

/**
 * Child nodes with events on (the other e2e tests run theirs without): their relay publishes to
 * the test's own broker, their activity feed consumes from it.
 */
final class EventNodes {

    /** The election's lease: a dead relay is taken over within about 1.25 of it. */
    static final String RELAY_LEASE = "3s";

    private EventNodes() {
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

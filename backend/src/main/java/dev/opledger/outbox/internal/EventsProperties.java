package dev.opledger.outbox.internal;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Publishing the ledger's events to Kafka ({@code opledger.events}); the broker is
 * {@code spring.kafka.bootstrap-servers}. Outbox rows are written whatever these say: they are
 * part of each state change's statement.
 *
 * @param enabled whether this node creates the topic and runs a relay (the test profile sets false;
 *     tests that read events turn it on)
 * @param embeddedBroker start a broker inside the node when {@code spring.kafka.bootstrap-servers}
 *     is not set (the local profile's default; see {@code node.kafka})
 * @param topic where every operation's events go, keyed by operationId
 * @param partitions the topic's partitions when the node creates it (the broker's default
 *     replication factor applies)
 * @param source the CloudEvents {@code ce_source} of every event
 * @param transactionalId the relay's Kafka transactional id, the same on every node: a relay that
 *     starts fences, inside Kafka, any producer of an earlier relay still alive
 * @param batchSize outbox rows per Kafka transaction at most
 * @param pollInterval how long an idle relay waits before looking for new rows
 * @param linger how long the relay waits after a batch that was not full before it takes the
 *     next, so that under load the rows of several state changes go in one Kafka transaction
 *     (its fixed cost, on the broker and in the consumers' fetches, is paid per batch); adds up to
 *     this much to an event's publication lag under load, nothing when idle. 0 takes the next
 *     batch at once. 50 ms: under the checkout benchmark's load, batches of 30-39 events instead of
 *     9-10 and the broker's CPU about halved, the relay's lag p50 17-20 -> 35-41 ms, its p99 unchanged
 *     (docs/benchmarks.md, "the relay's linger").
 * @param relayLease how long the elected relay holds the election without renewing it; another
 *     node takes over after it
 * @param retention how long published rows stay in the outbox before they are purged
 * @param purgeInterval how often the elected relay purges
 */
@ConfigurationProperties("opledger.events")
record EventsProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("false") boolean embeddedBroker,
        @DefaultValue("opledger.operation-events") String topic,
        @DefaultValue("6") int partitions,
        @DefaultValue("/opledger/ledger") URI source,
        @DefaultValue("opledger-outbox-relay") String transactionalId,
        @DefaultValue("500") int batchSize,
        @DefaultValue("100ms") Duration pollInterval,
        @DefaultValue("50ms") Duration linger,
        @DefaultValue("10s") Duration relayLease,
        @DefaultValue("7d") Duration retention,
        @DefaultValue("1m") Duration purgeInterval) {

    EventsProperties {
        if (partitions < 1) {
            throw new IllegalArgumentException("opledger.events.partitions must be at least 1");
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("opledger.events.batch-size must be at least 1");
        }
        if (linger.isNegative() || linger.compareTo(relayLease.dividedBy(4)) >= 0) {
            throw new IllegalArgumentException("opledger.events.linger must be at least 0 and shorter than a quarter of opledger.events.relay-lease");
        }
        if (pollInterval.compareTo(relayLease) >= 0) {
            throw new IllegalArgumentException("opledger.events.poll-interval must be shorter than opledger.events.relay-lease");
        }
    }
}

package dev.opledger.graph.internal;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The node's workers ({@code opledger.worker}).
 *
 * @param enabled whether this node runs operations at all (an API-only node sets false)
 * @param concurrency operations run at once by this node (8: a run mostly waits on its tools and the
 *     database, so more runs at once use that time; issue 13, docs/benchmarks.md "The worker's
 *     concurrency, and its runs on platform threads")
 * @param lease how long a lease lasts without a heartbeat; a dead node's operations are taken over after it
 * @param heartbeat how often leases are renewed; well under {@code lease}
 * @param pollInterval how long an idle worker waits before asking for work again. Only a fallback: an
 *     operation accepted on any node wakes the idle workers of every node at once (in-process here,
 *     by a PostgreSQL notification elsewhere); the poll finds what a lost notification did not say,
 *     and the operations whose lease expired
 */
@ConfigurationProperties("opledger.worker")
public record WorkerProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("8") int concurrency,
        @DefaultValue("30s") Duration lease,
        @DefaultValue("10s") Duration heartbeat,
        @DefaultValue("1s") Duration pollInterval) {

    public WorkerProperties {
        if (concurrency < 1) {
            throw new IllegalArgumentException("opledger.worker.concurrency must be at least 1");
        }
        if (heartbeat.compareTo(lease) >= 0) {
            throw new IllegalArgumentException("opledger.worker.heartbeat must be shorter than opledger.worker.lease");
        }
    }
}

package dev.opledger.claim.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * Counted in memory by the node where its worker's lease statements return (no statement of
 * their own): {@code opledger.lease.takeovers}, operations this node leased from an expired lease
 * (their worker died or stalled), and {@code opledger.fencing.refusals{write}}, writes the
 * database refused because the lease epoch was no longer this node's ({@code heartbeat}: a lease
 * the node lost; {@code finish}: the end of a run; the effect gateway counts {@code effect}).
 */
@Component
public class LeaseMeters {

    private final Counter takeovers;
    private final Counter heartbeatRefusals;
    private final Counter finishRefusals;

    public LeaseMeters(MeterRegistry registry) {
        this.takeovers = Counter.builder("opledger.lease.takeovers")
                .description("Operations this node leased from another worker's expired lease")
                .register(registry);
        this.heartbeatRefusals = refusals(registry, "heartbeat");
        this.finishRefusals = refusals(registry, "finish");
    }

    private static Counter refusals(MeterRegistry registry, String write) {
        return Counter.builder("opledger.fencing.refusals")
                .description("Writes the database refused because the lease epoch was no longer the writer's")
                .tag("write", write)
                .register(registry);
    }

    public void tookOver(int count) {
        takeovers.increment(count);
    }

    public void heartbeatRefused(int count) {
        heartbeatRefusals.increment(count);
    }

    public void finishRefused() {
        finishRefusals.increment();
    }
}

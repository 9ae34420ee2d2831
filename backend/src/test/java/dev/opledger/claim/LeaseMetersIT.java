package dev.opledger.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * {@code opledger.lease.takeovers} and {@code opledger.fencing.refusals{write}} as the node's
 * registry counts them: a lease that expired is taken over by a second node, whose predecessor's
 * heartbeat and end of run the database then refuses.
 */
@NodeIntegrationTest
class LeaseMetersIT {

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    MeterRegistry registry;

    @Test
    void aTakeOverIsCountedAndTheOldHoldersWritesAreFencingRefusals() throws InterruptedException {
        double takeovers = count("opledger.lease.takeovers", null);
        double heartbeats = count("opledger.fencing.refusals", "heartbeat");
        double finishes = count("opledger.fencing.refusals", "finish");
        OperationId id = Operations.claim(claims, new SubjectId("lease-meters-" + UUID.randomUUID()), 1).getFirst();
        Fence first = lifecycle.lease("lease-meters-a", 1000, Duration.ofMillis(1)).stream()
                .filter(o -> o.operationId().equals(id)).findFirst().orElseThrow().fence();
        Thread.sleep(20); // the lease expires

        List<LeasedOperation> taken = lifecycle.lease("lease-meters-b", 1000, Duration.ofMinutes(10));
        long takenOver = taken.stream().filter(o -> o.leasedFrom() == OperationStatus.RUNNING).count();
        assertThat(taken).anySatisfy(o -> assertThat(o.operationId()).isEqualTo(id));

        assertThat(lifecycle.heartbeat("lease-meters-a", List.of(first), Duration.ofMinutes(1)).held()).isEmpty();
        assertThat(lifecycle.finishRun(first, "lease-meters-a", OperationStatus.SUCCEEDED, null)).isFalse();

        assertThat(count("opledger.lease.takeovers", null)).isEqualTo(takeovers + takenOver).isGreaterThan(takeovers);
        assertThat(count("opledger.fencing.refusals", "heartbeat")).isEqualTo(heartbeats + 1);
        assertThat(count("opledger.fencing.refusals", "finish")).isEqualTo(finishes + 1);
    }

    private double count(String name, String write) {
        var search = registry.find(name);
        if (write != null) {
            search = search.tags("write", write);
        }
        var counter = search.counter();
        assertThat(counter).as("%s registered from the start", name).isNotNull();
        return counter.count();
    }
}

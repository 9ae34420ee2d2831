package dev.opledger.graph.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.graph.GraphThreadBusyException;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import org.junit.jupiter.api.Test;

class OperationRunsTest {

    private final OperationRuns runs = new OperationRuns();

    @Test
    void aLeasedRunIsTheOneTheGraphRunsInAndItsLeaseIsHeartbeatUntilTheWorkerEndsIt() {
        var fence = new Fence(OperationId.random(), 3);
        OperationRun run = runs.lease(fence).orElseThrow();

        assertThat(runs.enterGraph(fence.operationId())).isSameAs(run);
        assertThatThrownBy(() -> runs.enterGraph(fence.operationId())).isInstanceOf(GraphThreadBusyException.class);
        runs.exitGraph(run);

        assertThat(runs.leases()).singleElement().satisfies(lease -> assertThat(lease.fence()).isEqualTo(fence));
        assertThat(runs.lease(fence)).isEmpty();
        runs.end(run);
        assertThat(runs.leases()).isEmpty();
        assertThat(runs.find(fence.operationId())).isEmpty();
    }

    @Test
    void aGraphRunWithoutALeaseHoldsTheThreadOnlyWhileItRuns() {
        var operation = OperationId.random();
        OperationRun run = runs.enterGraph(operation);

        assertThat(run.lease()).isEmpty();
        assertThat(runs.leases()).isEmpty();
        assertThat(runs.lease(new Fence(operation, 1))).isEmpty();
        assertThatThrownBy(() -> runs.enterGraph(operation)).isInstanceOf(GraphThreadBusyException.class);

        runs.exitGraph(run);

        assertThat(runs.find(operation)).isEmpty();
        assertThat(runs.lease(new Fence(operation, 1))).isPresent();
    }
}

package dev.opledger.checkout;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * What the graph's nodes need of the run under way and cannot keep in the state: the lease, whose
 * fence (the operationId and the epoch) every effect carries. It is the lease the checkout's run is started
 * with, so a node finds it in its config ({@link GraphRunner#leaseOf}).
 */
record CheckoutRun(LeaseGuard lease) implements LeaseGuard {

    static CheckoutRun of(RunnableConfig config) {
        if (GraphRunner.leaseOf(config) instanceof CheckoutRun run) {
            return run;
        }
        throw new IllegalStateException("checkout node " + config.nodeId() + " runs outside CheckoutOperation");
    }

    OperationId operationId() {
        return lease.fence().operationId();
    }

    @Override
    public Fence fence() {
        return lease.fence();
    }

    @Override
    public boolean held() {
        return lease.held();
    }
}

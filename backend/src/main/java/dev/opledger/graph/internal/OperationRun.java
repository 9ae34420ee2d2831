package dev.opledger.graph.internal;

import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One operation this node is running: the lease its worker holds for it (none for a graph run
 * without a lease, by tests and tools), and whether a graph run of its thread is under way.
 */
public final class OperationRun {

    private final OperationId operationId;
    private final @Nullable HeldLease lease;
    private boolean inGraph;

    private OperationRun(OperationId operationId, @Nullable HeldLease lease) {
        this.operationId = operationId;
        this.lease = lease;
    }

    static OperationRun leased(Fence fence) {
        return new OperationRun(fence.operationId(), new HeldLease(fence));
    }

    static OperationRun unleased(OperationId operationId) {
        return new OperationRun(operationId, null);
    }

    public OperationId operationId() {
        return operationId;
    }

    /** The worker's lease for the run; empty for a graph run started without one. */
    public Optional<HeldLease> lease() {
        return Optional.ofNullable(lease);
    }

    synchronized boolean enterGraph() {
        if (inGraph) {
            return false;
        }
        inGraph = true;
        return true;
    }

    synchronized void exitGraph() {
        inGraph = false;
    }
}

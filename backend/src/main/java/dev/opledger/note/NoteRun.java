package dev.opledger.note;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import org.bsc.langgraph4j.RunnableConfig;

/** The lease a note's run is started with, found by its nodes in their config ({@link GraphRunner#leaseOf}). */
record NoteRun(LeaseGuard lease) implements LeaseGuard {

    static NoteRun of(RunnableConfig config) {
        if (GraphRunner.leaseOf(config) instanceof NoteRun run) {
            return run;
        }
        throw new IllegalStateException("note node " + config.nodeId() + " runs outside NoteOperation");
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

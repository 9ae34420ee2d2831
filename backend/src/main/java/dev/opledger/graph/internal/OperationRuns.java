package dev.opledger.graph.internal;

import dev.opledger.graph.GraphThreadBusyException;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.stereotype.Component;

/**
 * What this node is running, by operationId: the one registry of runs. The worker enters a run
 * when it leases the operation and leaves it when it has recorded the run's end (its heartbeats
 * renew the leases found here); the graph runner marks the thread busy while a graph run of it
 * goes on, so a second one in this node is refused; a graph run without a lease has an entry for
 * as long as it runs. Another node, or a {@code new GraphService(dataSource)} in a test, has its own.
 */
@Component
public final class OperationRuns {

    private final ConcurrentMap<OperationId, OperationRun> runs = new ConcurrentHashMap<>();

    /** A worker's run of a leased operation; empty when this node is running the operation already. */
    public Optional<OperationRun> lease(Fence fence) {
        var run = OperationRun.leased(fence);
        return runs.putIfAbsent(fence.operationId(), run) == null ? Optional.of(run) : Optional.empty();
    }

    public Optional<OperationRun> find(OperationId operationId) {
        return Optional.ofNullable(runs.get(operationId));
    }

    /** The leases of the runs under way, for the heartbeats. */
    public List<HeldLease> leases() {
        return runs.values().stream().flatMap(run -> run.lease().stream()).toList();
    }

    /** The worker has recorded the run's end (or left it to the lease's next holder). */
    public void end(OperationRun run) {
        runs.remove(run.operationId(), run);
    }

    /**
     * A graph run of the operation's thread starts: in the worker's run when there is one, in a run
     * of its own otherwise.
     *
     * @throws GraphThreadBusyException when a graph run of the thread is under way in this node
     */
    public OperationRun enterGraph(OperationId operationId) {
        // throwing inside compute leaves the map as it was
        return runs.compute(operationId, (id, run) -> {
            OperationRun entered = run == null ? OperationRun.unleased(id) : run;
            if (!entered.enterGraph()) {
                throw new GraphThreadBusyException(id);
            }
            return entered;
        });
    }

    public void exitGraph(OperationRun run) {
        runs.compute(run.operationId(), (id, current) -> {
            run.exitGraph();
            return current == run && run.lease().isEmpty() ? null : current;
        });
    }
}

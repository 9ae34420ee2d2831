package dev.opledger.graph;

import dev.opledger.operation.Fence;

/**
 * The lease a run holds: its fence, which every write of the run carries (the database refuses a
 * write whose epoch is no longer the operation's), and whether the worker's heartbeats still find
 * it held, so a run stops before its next effect rather than at its next refused write.
 */
public interface LeaseGuard {

    /** The operationId and the epoch of the lease, as it is now (a lease the node renewed has the next epoch). */
    Fence fence();

    boolean held();

    /**
     * Whether the worker's last heartbeat found a cancel pending on the operation. It costs no
     * query: a step that works long without an effect (whose STARTED write would be refused)
     * polls it and stops with {@code ExecutionOutcome.Cancelled}; the run's end resolves the
     * cancel. Noticed within one heartbeat ({@code opledger.worker.heartbeat}) of the request.
     */
    default boolean cancelRequested() {
        return false;
    }

    /** A lease that is never lost, for running a graph outside a worker (tests, tools). */
    static LeaseGuard of(Fence fence) {
        return new LeaseGuard() {
            @Override
            public Fence fence() {
                return fence;
            }

            @Override
            public boolean held() {
                return true;
            }
        };
    }
}

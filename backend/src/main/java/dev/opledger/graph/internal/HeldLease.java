package dev.opledger.graph.internal;

import dev.opledger.graph.LeaseGuard;
import dev.opledger.operation.Fence;

/** The lease this node's worker holds for one run ({@link OperationRun}); the heartbeats mark it lost, a re-lease by this node renews it. */
public final class HeldLease implements LeaseGuard {

    private Fence fence;
    private boolean held = true;
    private boolean cancelRequested;

    HeldLease(Fence fence) {
        this.fence = fence;
    }

    @Override
    public synchronized Fence fence() {
        return fence;
    }

    @Override
    public synchronized boolean held() {
        return held;
    }

    @Override
    public synchronized boolean cancelRequested() {
        return cancelRequested;
    }

    /** The heartbeat found a cancel pending on the operation in lease {@code seen}; a request is never withdrawn. */
    synchronized void cancelRequested(Fence seen) {
        if (seen.equals(fence)) {
            cancelRequested = true;
        }
    }

    /** Lost, unless the node renewed the lease since the heartbeat that found {@code seen} gone. */
    synchronized boolean lose(Fence seen) {
        if (seen.equals(fence) && held) {
            held = false;
            return true;
        }
        return false;
    }

    /**
     * This node leased the operation again while its run still goes on (a stall outlasted its
     * lease). The run goes on in the new epoch only when it is the next one: then no other node
     * held the lease in between. Otherwise another node did, and this run is stale.
     */
    synchronized boolean renew(Fence next) {
        if (held && next.epoch() == fence.epoch() + 1) {
            fence = next;
            return true;
        }
        held = false;
        return false;
    }
}

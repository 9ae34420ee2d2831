package dev.opledger.graph;

import dev.opledger.operation.Fence;

/**
 * A put was refused because the run's lease is no longer the operation's (the operation is not
 * RUNNING in the fence's epoch any more: another node took it over, or it ended). Nothing was
 * written; the run must stop.
 */
public final class CheckpointFencedException extends CheckpointConflictException {

    private final Fence fence;

    public CheckpointFencedException(Fence fence, String nodeId) {
        super(fence.operationId().value(), "checkpoint after node " + nodeId + " refused: lease " + fence
                + " is no longer the operation's");
        this.fence = fence;
    }

    public Fence fence() {
        return fence;
    }
}

package dev.opledger.graph;

import dev.opledger.claim.LeasedOperation;

/**
 * Runs (or resumes) one leased operation to the point where it ends or waits. Implemented by the
 * graph runner; called by the workers, one operation per virtual thread.
 */
public interface OperationExecutor {

    /**
     * @param lease tells whether this node still holds the operation; a run that finds it lost must
     *     stop before its next effect
     */
    ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease);
}

package dev.opledger.claim;

import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;

/**
 * An operation a worker now holds the lease of, with what running it needs.
 *
 * @param fence the operationId and this lease's epoch: every write of the run is conditional on it
 * @param command the command as JSON (PostgreSQL's jsonb rendering: read it, do not hash it)
 * @param runCount how many times a worker has leased it, this time included
 * @param leasedFrom ACCEPTED for a new or approved run, RUNNING when taken over from an expired lease
 */
public record LeasedOperation(SubjectId subject, Fence fence, String type, String command,
        int runCount, OperationStatus leasedFrom) {

    public OperationId operationId() {
        return fence.operationId();
    }

    /**
     * The operation's first lease: accepted and never run (run_count counts leases), so no run
     * of it has written anything yet.
     */
    public boolean firstLease() {
        return runCount == 1 && leasedFrom == OperationStatus.ACCEPTED;
    }
}

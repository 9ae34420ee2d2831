package dev.opledger.operation;

/**
 * An operation's lease as the worker that holds it knows it: the operationId and the epoch the
 * lease was taken in ({@code operation.lease_epoch}, incremented by every lease and takeover).
 * Every write a worker makes for the operation carries its fence and is refused by the database
 * once the operation is no longer RUNNING in that epoch, so a node that stalled past its lease
 * and wakes up after a takeover can change nothing (and calls no tool). Not a new identity: the
 * operationId is the identity; the epoch says which of its leases is writing.
 */
public record Fence(OperationId operationId, long epoch) {

    @Override
    public String toString() {
        return operationId + "@" + epoch;
    }
}

package dev.opledger.operation;

/** Where an operation stands. A replayed request is answered with the current status. */
public enum OperationStatus {
    /** Claimed and committed; no execution has started. */
    ACCEPTED,
    /** A worker holds the lease and runs the graph. */
    RUNNING,
    /** The graph stopped before an effect that needs a person's approval; a person decides in the console. */
    AWAITING_APPROVAL,
    SUCCEEDED,
    FAILED,
    CANCELLED,
    /** Stopped where repeating an effect could duplicate it; a person decides. */
    NEEDS_REVIEW
}

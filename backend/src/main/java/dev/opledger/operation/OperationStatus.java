package dev.opledger.operation;

/** Where an operation stands. A replayed request is answered with the current status. */
public enum OperationStatus {
    /** Claimed and committed; no execution has started. */
    ACCEPTED,
    /** A worker holds the lease and runs the graph. */
    RUNNING,
    /** The graph stopped before an effect that needs a person's approval; a person decides in the console. */
    AWAITING_APPROVAL,
    /**
     * The run stopped because it needs input from the client that submitted it (an MCP task's
     * {@code input_required}); the client's answer sends it back to the workers.
     */
    AWAITING_INPUT,
    SUCCEEDED,
    FAILED,
    CANCELLED,
    /** Stopped where repeating an effect could duplicate it; a person decides. */
    NEEDS_REVIEW
}

package dev.opledger.outbox;

import dev.opledger.operation.OperationStatus;

/**
 * The types of the ledger's events, as they appear on Kafka ({@code type}, {@code ce_type}) and
 * in {@code docs/events.md}: the constants are named as the wire names, so a rename is a
 * contract change the compiler shows everywhere.
 */
public enum EventType {
    /** The claim committed a new operation (sequence 1). */
    OperationAccepted,
    /** A worker leased an ACCEPTED operation and runs it. */
    OperationRunning,
    /** A worker leased a RUNNING operation whose lease had expired (its node died or stalled). */
    OperationTakenOver,
    /** The run stopped before an effect that needs a person's approval. */
    ApprovalRequested,
    /** A person approved or rejected; the operation is ACCEPTED again and its run goes on. */
    ApprovalDecided,
    /**
     * The run stopped because it needs input from the client (MCP {@code input_required}):
     * {@code inputKeys} names the requests now open.
     */
    InputRequested,
    /**
     * The client answered open requests ({@code inputKeys}); once none is left open the operation
     * is ACCEPTED again and its run goes on, else it stays AWAITING_INPUT.
     */
    InputProvided,
    /** A person sent an operation back to the workers other than by an approval. */
    OperationRequeued,
    /**
     * A person resolved the unknown outcome of a step's effect (it landed, it did not, or give up);
     * the operation is ACCEPTED again and its run goes on from that step.
     */
    ReviewResolved,
    /**
     * An admin started a replay from an earlier checkpoint ({@code fromCheckpoint}): the graph is
     * forked from it and the operation is ACCEPTED again; the effect records decide what each later
     * step's effect does (docs/replay.md).
     */
    ReplayStarted,
    /** A call attempt of a tool is about to be made (one per attempt). */
    AgentToolStarted,
    /** A tool call's outcome: it succeeded (or a check found it had landed). */
    AgentToolCompleted,
    /** A tool call's outcome: the tool answered with an error. */
    AgentToolFailed,
    OperationSucceeded,
    OperationFailed,
    /** Stopped where repeating an effect could duplicate it; a person decides. */
    OperationNeedsReview,
    /** The run stopped at a step boundary after a cancel was requested, or the ledger cancelled an operation no worker held. */
    OperationCancelled,
    /** Someone asked to cancel the operation (REST, MCP or the console); a RUNNING one goes on to its next step boundary. */
    CancelRequested,
    /** A worker saw the cancel at a step boundary, or the ledger took it for an operation no worker held. */
    CancelAcknowledged,
    /** The effect in flight when the cancel was requested landed anyway: {@code tool} and {@code stepKey} say which. */
    CancelEffectCommitted;

    /** The event of a change into {@code status} that is neither the claim, a lease nor an approval decision. */
    public static EventType entering(OperationStatus status) {
        return switch (status) {
            case ACCEPTED -> OperationRequeued;
            case RUNNING -> OperationRunning;
            case AWAITING_APPROVAL -> ApprovalRequested;
            case AWAITING_INPUT -> InputRequested;
            case SUCCEEDED -> OperationSucceeded;
            case FAILED -> OperationFailed;
            case CANCELLED -> OperationCancelled;
            case NEEDS_REVIEW -> OperationNeedsReview;
        };
    }
}

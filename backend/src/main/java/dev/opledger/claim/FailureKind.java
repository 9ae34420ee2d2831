package dev.opledger.claim;

/**
 * Why a FAILED operation failed, as the ledger tells the two apart: the run's own outcome (a tool
 * refused, a rejection was undone), which is the operation's answer, or a breakdown of the run
 * itself (it threw), which is the node's fault and says nothing about the operation's arguments.
 */
public enum FailureKind {
    /** The run ended with a failure it decided on: the tool's refusal is the operation's outcome. */
    OUTCOME,
    /** The run broke down unexpectedly (an exception escaped it); the reason names the exception's class only. */
    BROKE_DOWN
}

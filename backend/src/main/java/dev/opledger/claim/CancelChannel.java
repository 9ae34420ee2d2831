package dev.opledger.claim;

/** The way a cancel reached the node, recorded with it ({@code operation_cancel.channel}). */
public enum CancelChannel {
    /** {@code POST /v1/operations/{operationId}/cancel}, by the operation's subject. */
    REST,
    /** {@code tasks/cancel} at {@code /mcp}, by the task's subject. */
    MCP,
    /** The console, by support staff. */
    CONSOLE
}

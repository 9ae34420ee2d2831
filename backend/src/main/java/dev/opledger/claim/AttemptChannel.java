package dev.opledger.claim;

/** The way an attempt reached the node, recorded with it (column {@code channel}). */
public enum AttemptChannel {
    /** The app-facing API ({@code POST /v1/operations}), where App Attest applies. */
    REST,
    /** The node's MCP server ({@code tools/call} at {@code /mcp}): an agent, never App Attest. */
    MCP
}

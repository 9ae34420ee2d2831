package dev.opledger.tools.toolkit;

/**
 * The MCP tool annotations, all four stated (the protocol's defaults would otherwise claim
 * destructive and open-world). Every effect of this server stays in its own database, so none is
 * open-world.
 */
public record ToolHints(boolean readOnlyHint, boolean destructiveHint, boolean idempotentHint,
        boolean openWorldHint) {

    public static ToolHints readOnly() {
        return new ToolHints(true, false, true, false);
    }

    public static ToolHints write(boolean destructive, boolean idempotent) {
        return new ToolHints(false, destructive, idempotent, false);
    }
}

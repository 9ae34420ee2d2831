package dev.opledger.mcp;

import org.jspecify.annotations.Nullable;

/** A tool's MCP annotations that speak about repeating it; null where the server said nothing. */
public record ToolHints(@Nullable Boolean readOnly, @Nullable Boolean idempotent, @Nullable Boolean destructive,
        @Nullable Boolean openWorld) {
}

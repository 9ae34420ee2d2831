package dev.opledger.classification;

import dev.opledger.mcp.ToolHints;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One tool of the registry: its class and retry policy, and what its server listed as accepted
 * (a listing that differs is in {@code openChanges}, not here).
 *
 * @param hints the accepted annotations; all null if the tool was never listed
 * @param inputSchema the accepted input schema; empty if the tool was never listed
 * @param listed whether the server listed it at the last discovery
 * @param discoveredAt when its listing was first recorded; null if never
 */
public record RegisteredTool(ToolClass toolClass, @Nullable String title, @Nullable String description,
        ToolHints hints, Map<String, Object> inputSchema, boolean listed, @Nullable Instant discoveredAt,
        List<ToolChange> openChanges) {

    public boolean flagged() {
        return !openChanges.isEmpty();
    }
}

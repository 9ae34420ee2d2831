package dev.opledger.claim;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A cancel as the ledger keeps it: requested, acknowledged (by the node whose worker saw it at a
 * step boundary, or by {@code ledger} when no worker held the operation), resolved.
 *
 * @param requestedBy {@code subject:<id>} for the API and MCP, {@code console:<user>} for staff
 * @param step the step of the effect the resolution names (EFFECT_COMMITTED_ANYWAY, NEEDS_REVIEW), else null
 * @param tool that step's tool, else null
 */
public record CancelRecord(
        String requestedBy,
        CancelChannel channel,
        @Nullable String reason,
        Instant requestedAt,
        @Nullable Instant acknowledgedAt,
        @Nullable String acknowledgedBy,
        @Nullable CancelResolution resolution,
        @Nullable String step,
        @Nullable String tool,
        @Nullable Instant resolvedAt) {

    /** Requested, and no worker has reached a step boundary since. */
    public boolean pending() {
        return resolution == null;
    }
}

package dev.opledger.tools.inventory;

import dev.opledger.tools.toolkit.ToolOutcome;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Stock set aside for an operation's step. */
record Reservation(UUID reservationId, String sku, long quantity, @Nullable String idempotencyKey,
        String operationId, String stepKey, Instant createdAt) {

    /** The result of a call; a replayed one answers with the committed reservation. */
    ToolOutcome.Success asOutcome(boolean replayed) {
        return new ToolOutcome.Success(Map.of(
                "reservationId", reservationId.toString(),
                "sku", sku,
                "quantity", quantity,
                "createdAt", createdAt.toString(),
                "replayed", replayed),
                (replayed ? "Already reserved " : "Reserved ") + quantity + " x " + sku + " (reservation "
                        + reservationId + ")");
    }
}

package dev.opledger.tools.inventory;

import dev.opledger.tools.toolkit.ToolOutcome;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A reservation handed back: its stock is on the product again. */
record Release(UUID releaseId, UUID reservationId, String sku, long quantity, @Nullable String idempotencyKey,
        String operationId, String stepKey, Instant releasedAt) {

    /** The result of a call; a replayed one answers with the committed release. */
    ToolOutcome.Success asOutcome(boolean replayed) {
        return new ToolOutcome.Success(Map.of(
                "releaseId", releaseId.toString(),
                "reservationId", reservationId.toString(),
                "sku", sku,
                "quantity", quantity,
                "releasedAt", releasedAt.toString(),
                "replayed", replayed),
                (replayed ? "Already released " : "Released ") + quantity + " x " + sku + " (reservation "
                        + reservationId + ")");
    }
}

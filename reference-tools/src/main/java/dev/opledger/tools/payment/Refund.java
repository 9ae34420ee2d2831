package dev.opledger.tools.payment;

import dev.opledger.tools.toolkit.ToolOutcome;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A captured payment given back: its whole amount. */
record Refund(UUID refundId, UUID paymentId, BigDecimal amount, String currency, @Nullable String idempotencyKey,
        String operationId, String stepKey, Instant refundedAt) {

    /** The result of a call; a replayed one answers with the committed refund. */
    ToolOutcome.Success asOutcome(boolean replayed) {
        return new ToolOutcome.Success(Map.of(
                "refundId", refundId.toString(),
                "paymentId", paymentId.toString(),
                "amount", amount.stripTrailingZeros(),
                "currency", currency,
                "refundedAt", refundedAt.toString(),
                "replayed", replayed),
                (replayed ? "Already refunded " : "Refunded ") + amount.stripTrailingZeros().toPlainString() + " "
                        + currency + " (payment " + paymentId + ")");
    }
}

package dev.opledger.tools.payment;

import dev.opledger.tools.toolkit.ToolOutcome;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** Money captured for an operation's step. */
record Payment(UUID paymentId, BigDecimal amount, String currency, @Nullable String idempotencyKey,
        String operationId, String stepKey, Instant capturedAt) {

    ToolOutcome.Success asOutcome(boolean replayed) {
        return new ToolOutcome.Success(Map.of(
                "paymentId", paymentId.toString(),
                "amount", amount.stripTrailingZeros(),
                "currency", currency,
                "capturedAt", capturedAt.toString(),
                "replayed", replayed),
                (replayed ? "Already captured " : "Captured ") + amount.stripTrailingZeros().toPlainString() + " "
                        + currency + " (payment " + paymentId + ")");
    }
}

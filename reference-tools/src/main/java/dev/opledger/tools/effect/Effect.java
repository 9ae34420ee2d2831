package dev.opledger.tools.effect;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One real effect.
 *
 * @param argumentsDigest SHA-256 (hex) of the call's arguments as canonical JSON (keys sorted)
 * @param resultId what the effect made or changed: a reservation, payment, message, adjustment
 *     id, or the order whose address was set
 */
public record Effect(long effectId, String tool, String operationId, String stepKey,
        @Nullable String idempotencyKey, String argumentsDigest, String resultId, Instant createdAt) {
}

package dev.opledger.effect;

import dev.opledger.operation.OperationId;
import java.time.Instant;

/** A person's resolution of an effect whose outcome was unknown: who found what, and their note. */
public record EffectReview(OperationId operationId, String stepKey, String tool, Instant callStartedAt,
        EffectResolution resolution, String actor, String note, Instant decidedAt) {
}

package dev.opledger.tools.points;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** One change of an account's balance, with the operation and step that made it. */
record Adjustment(UUID adjustmentId, String account, long delta, String operationId, String stepKey,
        Instant appliedAt) {

    Map<String, Object> asResult() {
        return Map.of("adjustmentId", adjustmentId.toString(), "delta", delta, "operationId", operationId,
                "stepKey", stepKey, "appliedAt", appliedAt.toString());
    }
}

package dev.opledger.claim;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A request that reused an operationId with a different payload, refused with 422. */
public record ConflictRecord(
        long id,
        SubjectId subject,
        OperationId operationId,
        PayloadHash storedHash,
        PayloadHash offeredHash,
        String offeredType,
        Instant detectedAt,
        UUID requestId,
        @Nullable String userAgent,
        @Nullable String clientAddress) {
}

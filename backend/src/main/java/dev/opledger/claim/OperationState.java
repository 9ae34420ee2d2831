package dev.opledger.claim;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** An operation as the ledger holds it now; {@code failure} says why, for a FAILED one that a run ended. */
public record OperationState(
        SubjectId subject,
        OperationId operationId,
        String type,
        OperationStatus status,
        PayloadHash payloadHash,
        Instant createdAt,
        Instant updatedAt,
        @Nullable FailureKind failure) {
}

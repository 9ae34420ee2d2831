package dev.opledger.claim;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import java.time.Instant;

/** An operation as the ledger holds it now. */
public record OperationState(
        SubjectId subject,
        OperationId operationId,
        String type,
        OperationStatus status,
        PayloadHash payloadHash,
        Instant createdAt,
        Instant updatedAt) {
}

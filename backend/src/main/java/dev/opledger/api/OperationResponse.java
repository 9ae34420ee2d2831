package dev.opledger.api;

import dev.opledger.claim.OperationState;
import java.time.Instant;

/** The operation as the API shows it to its owner. */
record OperationResponse(
        String operationId, String type, String status, String payloadHash, Instant createdAt, Instant updatedAt) {

    static OperationResponse of(OperationState operation) {
        return new OperationResponse(operation.operationId().toString(), operation.type(),
                operation.status().name(), operation.payloadHash().hex(), operation.createdAt(),
                operation.updatedAt());
    }
}

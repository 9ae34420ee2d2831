package dev.opledger.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.OperationState;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The operation as the API shows it to its owner; the answer to a cancel adds the cancel as the
 * ledger holds it ({@code cancel}, absent elsewhere). A FAILED operation that a run ended says
 * how ({@code failure}: {@code OUTCOME} or {@code BROKE_DOWN}, docs/protocol.md).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record OperationResponse(
        String operationId, String type, String status, @Nullable String failure, String payloadHash,
        Instant createdAt, Instant updatedAt, @Nullable Cancel cancel) {

    static OperationResponse of(OperationState operation) {
        return of(operation, null);
    }

    static OperationResponse of(OperationState operation, @Nullable CancelRecord cancel) {
        return new OperationResponse(operation.operationId().toString(), operation.type(),
                operation.status().name(), operation.failure() == null ? null : operation.failure().name(),
                operation.payloadHash().hex(), operation.createdAt(),
                operation.updatedAt(), cancel == null ? null : Cancel.of(cancel));
    }

    /**
     * A cancel: {@code requested} until a worker reaches a step boundary (or at once, for an
     * operation no worker held), then {@code resolved} with its resolution and, where it names an
     * effect, the step and tool.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Cancel(String state, Instant requestedAt, @Nullable Instant acknowledgedAt, @Nullable String resolution,
            @Nullable String step, @Nullable String tool) {

        static Cancel of(CancelRecord cancel) {
            return new Cancel(cancel.pending() ? "requested" : "resolved", cancel.requestedAt(), cancel.acknowledgedAt(),
                    cancel.resolution() == null ? null : cancel.resolution().name(), cancel.step(), cancel.tool());
        }
    }
}

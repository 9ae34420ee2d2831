package dev.opledger.claim;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import org.jspecify.annotations.Nullable;

/** Narrows the ledger; a null field does not filter. */
public record LedgerFilter(
        @Nullable OperationStatus status, @Nullable SubjectId subject, @Nullable OperationId operationId) {

    public static LedgerFilter none() {
        return new LedgerFilter(null, null, null);
    }
}

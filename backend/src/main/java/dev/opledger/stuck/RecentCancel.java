package dev.opledger.stuck;

import dev.opledger.claim.CancelRecord;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;

/** A cancel asked for, with how far it has come and the status its operation is in now. */
public record RecentCancel(OperationId operationId, SubjectId subject, String operationType, OperationStatus status,
        CancelRecord cancel) {
}

package dev.opledger.claim;

import java.util.List;

/** An operation with everything the ledger knows about how it was requested. */
public record OperationDetail(
        OperationState operation, String command, List<AttemptRecord> attempts, List<ConflictRecord> conflicts) {
}

package dev.opledger.claim;

import java.util.List;

/**
 * An operation with everything the ledger knows about how it was requested.
 *
 * @param attested whether the claiming attempt carried a verified App Attest assertion
 */
public record OperationDetail(
        OperationState operation, boolean attested, String command, List<AttemptRecord> attempts,
        List<ConflictRecord> conflicts) {
}

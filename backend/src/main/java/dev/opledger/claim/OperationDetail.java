package dev.opledger.claim;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An operation with everything the ledger knows about how it was requested and where it stands.
 *
 * @param statusReason why the operation is in its status: what failed, what needs review, who
 *     decided; null when nothing was said
 * @param attested whether the claiming attempt carried a verified App Attest assertion
 */
public record OperationDetail(
        OperationState operation, @Nullable String statusReason, boolean attested, String command,
        List<AttemptRecord> attempts, List<ConflictRecord> conflicts) {
}

package dev.opledger.claim;

import dev.opledger.operation.OperationStatus;
import java.util.Optional;

/**
 * The ledger's side of a replay the replay stage started: the operation is ACCEPTED again in the
 * same statement that wrote its transition and its {@code ReplayStarted} event.
 *
 * @param from the status it had before the replay
 * @param undoneApproval the approval decision made after the replay's checkpoint, which the
 *     statement removed so that the replayed graph asks for it again; empty when there was none
 */
public record ReplayStart(OperationStatus from, Optional<ApprovalDecision> undoneApproval) {
}

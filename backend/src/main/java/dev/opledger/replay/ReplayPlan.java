package dev.opledger.replay;

import dev.opledger.claim.ApprovalDecision;
import dev.opledger.graph.CheckpointEntry;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import java.util.List;
import java.util.Optional;

/**
 * A dry run: what a replay of the operation from {@code checkpoint} will do.
 *
 * @param effects every effect recorded after the checkpoint, in the order its first call started
 * @param approvalAskedAgain the approval decided after the checkpoint: the replay removes it and
 *     its graph asks for the decision again
 * @param digest binds a start to this dry run: a start with another digest (the records, the
 *     status or the thread changed since) is refused as stale
 */
public record ReplayPlan(OperationId operationId, CheckpointEntry checkpoint, OperationStatus status,
        List<PlannedEffect> effects, Optional<ApprovalDecision> approvalAskedAgain, String digest) {

    public ReplayPlan {
        effects = List.copyOf(effects);
    }

    /** The effects the replay stops before unless a person acknowledges them. */
    public List<PlannedEffect> blocked() {
        return effects.stream().filter(effect -> effect.action() == ReplayAction.BLOCKED).toList();
    }
}

package dev.opledger.checkout;

import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.LifecycleService;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.StepResult;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * Waits for a person's decision on an amount over the limit. Until the ledger holds the decision
 * ({@link LifecycleService#approval}) it stops the run, AWAITING_APPROVAL, before its own
 * checkpoint, so it is asked again on every resume, on any node, and writes no checkpoint while
 * it waits; once decided it copies the decision into the state, where the planner reads it. It
 * makes no effect, so running again is harmless: the capture after it is guarded by its effect
 * record.
 */
final class AwaitApprovalNode implements GraphStep<CheckoutState> {

    private final LifecycleService lifecycle;
    private final BigDecimal approvalLimit;

    AwaitApprovalNode(LifecycleService lifecycle, BigDecimal approvalLimit) {
        this.lifecycle = lifecycle;
        this.approvalLimit = approvalLimit;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        Optional<ApprovalDecision> decided = lifecycle.approval(GraphRunner.leaseOf(config).fence().operationId());
        if (decided.isEmpty()) {
            return StepResult.stop(new ExecutionOutcome.AwaitingApproval("amount " + state.amountText()
                    + " over limit " + CheckoutState.money(approvalLimit)));
        }
        ApprovalDecision decision = decided.get();
        Map<String, Object> approval = new LinkedHashMap<>();
        approval.put("approved", decision.approved());
        approval.put("actor", decision.actor());
        if (decision.reason() != null) {
            approval.put("reason", decision.reason());
        }
        approval.put("decidedAt", decision.decidedAt().toString());
        return StepResult.next(Map.of(CheckoutState.APPROVAL, approval));
    }
}

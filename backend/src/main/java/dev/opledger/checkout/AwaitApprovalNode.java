package dev.opledger.checkout;

import static java.util.concurrent.CompletableFuture.completedFuture;

import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.LifecycleService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.AsyncNodeActionWithConfig;
import org.bsc.langgraph4j.action.InterruptableAction;
import org.bsc.langgraph4j.action.InterruptionMetadata;

/**
 * Waits for a person's decision on an amount over the limit. It interrupts itself until the
 * ledger holds the decision ({@link LifecycleService#approval}), so it is asked again on every
 * resume, on any node, and writes no checkpoint while it waits; once decided it copies the
 * decision into the state, where the planner reads it. It makes no effect, so running again is
 * harmless: the capture after it is guarded by its effect record.
 */
final class AwaitApprovalNode implements AsyncNodeActionWithConfig<CheckoutState>, InterruptableAction<CheckoutState> {

    private final CheckoutRuns runs;
    private final LifecycleService lifecycle;

    AwaitApprovalNode(CheckoutRuns runs, LifecycleService lifecycle) {
        this.runs = runs;
        this.lifecycle = lifecycle;
    }

    @Override
    public Optional<InterruptionMetadata<CheckoutState>> interrupt(String nodeId, CheckoutState state,
            RunnableConfig config) {
        return decision(config).isPresent()
                ? Optional.empty()
                : Optional.of(InterruptionMetadata.builder(nodeId, state).build());
    }

    @Override
    public CompletableFuture<Map<String, Object>> apply(CheckoutState state, RunnableConfig config) {
        ApprovalDecision decision = decision(config)
                .orElseThrow(() -> new IllegalStateException("the approval step ran without a decision"));
        Map<String, Object> approval = new LinkedHashMap<>();
        approval.put("approved", decision.approved());
        approval.put("actor", decision.actor());
        if (decision.reason() != null) {
            approval.put("reason", decision.reason());
        }
        approval.put("decidedAt", decision.decidedAt().toString());
        return completedFuture(Map.of(CheckoutState.APPROVAL, approval));
    }

    private Optional<ApprovalDecision> decision(RunnableConfig config) {
        return lifecycle.approval(runs.of(config).operationId());
    }
}

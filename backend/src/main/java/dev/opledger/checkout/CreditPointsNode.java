package dev.opledger.checkout;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.StepResult;
import java.util.LinkedHashMap;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * Credits loyalty points (adjust_points, check-then-write): before writing again after an unknown
 * outcome, the effect gateway asks the check the tool registry declares for adjust_points
 * (get_points with the account, and this step's operationId and key) whether this step's
 * adjustment already landed.
 */
final class CreditPointsNode implements GraphStep<CheckoutState> {

    static final String TOOL = "adjust_points";

    private final CheckoutEffects effects;

    CreditPointsNode(CheckoutEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        int delta = state.pointsToCredit();
        if (delta == 0) {
            return StepResult.next(Map.of(CheckoutState.POINTS, Map.of("delta", 0)));
        }
        LeaseGuard run = GraphRunner.leaseOf(config);
        String account = state.loyaltyAccount().orElseThrow();
        return effects.perform(run, CheckoutStep.POINTS, TOOL, Map.of("account", account, "delta", delta),
                result -> StepResult.next(points(result, account, delta)));
    }

    private static Map<String, Object> points(Map<String, Object> result, String account, int delta) {
        // a write answers adjustmentId; a check that found the adjustment answers appliedAdjustment
        Object adjustmentId = result.get("adjustmentId") != null ? result.get("adjustmentId")
                : result.get("appliedAdjustment") instanceof Map<?, ?> applied ? applied.get("adjustmentId") : null;
        Map<String, Object> points = new LinkedHashMap<>();
        points.put("account", account);
        points.put("delta", delta);
        if (adjustmentId != null) {
            points.put("adjustmentId", adjustmentId);
        }
        return Map.of(CheckoutState.POINTS, points);
    }
}

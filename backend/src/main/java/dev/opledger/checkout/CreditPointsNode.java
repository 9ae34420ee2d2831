package dev.opledger.checkout;

import java.util.LinkedHashMap;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.NodeActionWithConfig;

/**
 * Credits loyalty points (adjust_points, check-then-write): before writing again after an unknown
 * outcome, the effect gateway asks the check the tool registry declares for adjust_points
 * (get_points with the account, and this step's operationId and key) whether this step's
 * adjustment already landed.
 */
final class CreditPointsNode implements NodeActionWithConfig<CheckoutState> {

    static final String TOOL = "adjust_points";

    private final CheckoutRuns runs;
    private final CheckoutEffects effects;

    CreditPointsNode(CheckoutRuns runs, CheckoutEffects effects) {
        this.runs = runs;
        this.effects = effects;
    }

    @Override
    public Map<String, Object> apply(CheckoutState state, RunnableConfig config) {
        int delta = state.pointsToCredit();
        if (delta == 0) {
            return Map.of(CheckoutState.POINTS, Map.of("delta", 0));
        }
        CheckoutRun run = runs.of(config);
        String account = state.loyaltyAccount().orElseThrow();
        var result = effects.perform(run, CheckoutStep.POINTS, TOOL, Map.of("account", account, "delta", delta));
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

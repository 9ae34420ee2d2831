package dev.opledger.checkout;

import dev.opledger.effect.EffectCheck;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.StepResult;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * Credits loyalty points (adjust_points, check-then-write): before writing again after an unknown
 * outcome, the effect gateway asks get_points, with this step's operationId and key, whether
 * this step's adjustment already landed.
 */
final class CreditPointsNode implements GraphStep<CheckoutState> {

    static final String TOOL = "adjust_points";
    static final String CHECK_TOOL = "get_points";

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
        CheckoutRun run = CheckoutRun.of(config);
        String account = state.loyaltyAccount().orElseThrow();
        return effects.perform(run, CheckoutStep.POINTS, TOOL, Map.of("account", account, "delta", delta),
                landed(run, account), result -> StepResult.next(points(result, account, delta)));
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

    private EffectCheck landed(CheckoutRun run, String account) {
        return () -> {
            ToolReply reply = effects.read(run, CheckoutStep.POINTS, CHECK_TOOL, Map.of("account", account));
            if (reply.error()) {
                throw new ToolTransportException(CHECK_TOOL + " refused the check: " + reply.text());
            }
            if (!Boolean.TRUE.equals(reply.content().get("applied"))) {
                return Optional.empty();
            }
            // only this step's adjustment, not the account's recent history (other operations' ids)
            Map<String, Object> landed = new LinkedHashMap<>();
            landed.put("account", account);
            landed.put("applied", true);
            landed.put("balance", reply.content().get("balance"));
            landed.put("appliedAdjustment", reply.content().get("appliedAdjustment"));
            return Optional.of(landed);
        };
    }
}

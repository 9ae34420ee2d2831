package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.required;

import java.math.BigDecimal;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.NodeActionWithConfig;

/** Reserves the stock (reserve_inventory, keyed) and notes whether the amount needs a person's approval. */
final class ReserveNode implements NodeActionWithConfig<CheckoutState> {

    static final String TOOL = "reserve_inventory";

    private final CheckoutRuns runs;
    private final CheckoutEffects effects;
    private final BigDecimal approvalLimit;

    ReserveNode(CheckoutRuns runs, CheckoutEffects effects, BigDecimal approvalLimit) {
        this.runs = runs;
        this.effects = effects;
        this.approvalLimit = approvalLimit;
    }

    @Override
    public Map<String, Object> apply(CheckoutState state, RunnableConfig config) {
        var result = effects.perform(runs.of(config), CheckoutStep.RESERVE, TOOL,
                Map.of("sku", state.sku(), "quantity", state.quantity()));
        return Map.of(
                CheckoutState.RESERVATION, Map.of("reservationId", required(result, "reservationId", CheckoutStep.RESERVE, TOOL)),
                CheckoutState.NEEDS_APPROVAL, state.amount().compareTo(approvalLimit) > 0);
    }
}

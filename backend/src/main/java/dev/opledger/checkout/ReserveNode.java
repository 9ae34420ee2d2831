package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.required;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.StepResult;
import java.math.BigDecimal;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;

/** Reserves the stock (reserve_inventory, keyed) and notes whether the amount needs a person's approval. */
final class ReserveNode implements GraphStep<CheckoutState> {

    static final String TOOL = "reserve_inventory";

    private final CheckoutEffects effects;
    private final BigDecimal approvalLimit;

    ReserveNode(CheckoutEffects effects, BigDecimal approvalLimit) {
        this.effects = effects;
        this.approvalLimit = approvalLimit;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        return effects.perform(GraphRunner.leaseOf(config), CheckoutStep.RESERVE, TOOL,
                Map.of("sku", state.sku(), "quantity", state.quantity()),
                result -> required(result, "reservationId", CheckoutStep.RESERVE, TOOL, reservationId -> Map.of(
                        CheckoutState.RESERVATION, Map.of("reservationId", reservationId),
                        CheckoutState.NEEDS_APPROVAL, state.amount().compareTo(approvalLimit) > 0)));
    }
}

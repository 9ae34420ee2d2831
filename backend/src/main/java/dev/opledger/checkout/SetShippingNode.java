package dev.opledger.checkout;

import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.NodeActionWithConfig;

/** Sets the order's shipping address (set_shipping_address, idempotent); the order is the operation. */
final class SetShippingNode implements NodeActionWithConfig<CheckoutState> {

    static final String TOOL = "set_shipping_address";

    private final CheckoutRuns runs;
    private final CheckoutEffects effects;

    SetShippingNode(CheckoutRuns runs, CheckoutEffects effects) {
        this.runs = runs;
        this.effects = effects;
    }

    @Override
    public Map<String, Object> apply(CheckoutState state, RunnableConfig config) {
        CheckoutRun run = runs.of(config);
        String address = state.shippingAddress().orElseThrow(
                () -> CheckoutStoppedException.failed("shipping: the checkout has no shipping address"));
        String orderId = run.operationId().toString();
        effects.perform(run, CheckoutStep.SHIPPING, TOOL, Map.of("orderId", orderId, "address", address));
        return Map.of(CheckoutState.SHIPPING, Map.of("orderId", orderId, "address", address));
    }
}

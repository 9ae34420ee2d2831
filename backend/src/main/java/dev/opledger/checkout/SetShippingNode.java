package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.failed;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.StepResult;
import java.util.Map;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;

/** Sets the order's shipping address (set_shipping_address, idempotent); the order is the operation. */
final class SetShippingNode implements GraphStep<CheckoutState> {

    static final String TOOL = "set_shipping_address";

    private final CheckoutEffects effects;

    SetShippingNode(CheckoutEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        LeaseGuard run = GraphRunner.leaseOf(config);
        Optional<String> address = state.shippingAddress();
        if (address.isEmpty()) {
            return failed("shipping: the checkout has no shipping address");
        }
        String orderId = run.fence().operationId().toString();
        return effects.perform(run, CheckoutStep.SHIPPING, TOOL, Map.of("orderId", orderId, "address", address.get()),
                result -> StepResult.next(Map.of(CheckoutState.SHIPPING,
                        Map.of("orderId", orderId, "address", address.get()))));
    }
}

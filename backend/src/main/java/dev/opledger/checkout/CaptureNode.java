package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.failed;
import static dev.opledger.checkout.CheckoutEffects.required;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.StepResult;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;

/** Captures the payment (capture_payment, keyed), never without the approval the amount needs. */
final class CaptureNode implements GraphStep<CheckoutState> {

    static final String TOOL = "capture_payment";

    private final CheckoutEffects effects;

    CaptureNode(CheckoutEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        if (state.needsApproval() && !state.approved()) {
            return failed("capture: the amount needs a person's approval, which it does not have");
        }
        return effects.perform(GraphRunner.leaseOf(config), CheckoutStep.CAPTURE, TOOL,
                Map.of("amount", state.amount(), "currency", state.currency()),
                result -> required(result, "paymentId", CheckoutStep.CAPTURE, TOOL,
                        paymentId -> Map.of(CheckoutState.PAYMENT, Map.of("paymentId", paymentId))));
    }
}

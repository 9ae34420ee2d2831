package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.required;

import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.NodeActionWithConfig;

/** Captures the payment (capture_payment, keyed), never without the approval the amount needs. */
final class CaptureNode implements NodeActionWithConfig<CheckoutState> {

    static final String TOOL = "capture_payment";

    private final CheckoutRuns runs;
    private final CheckoutEffects effects;

    CaptureNode(CheckoutRuns runs, CheckoutEffects effects) {
        this.runs = runs;
        this.effects = effects;
    }

    @Override
    public Map<String, Object> apply(CheckoutState state, RunnableConfig config) {
        if (state.needsApproval() && !state.approved()) {
            throw CheckoutStoppedException.failed("capture: the amount needs a person's approval, which it does not have");
        }
        var result = effects.perform(runs.of(config), CheckoutStep.CAPTURE, TOOL,
                Map.of("amount", state.amount(), "currency", state.currency()));
        return Map.of(CheckoutState.PAYMENT, Map.of("paymentId", required(result, "paymentId", CheckoutStep.CAPTURE, TOOL)));
    }
}

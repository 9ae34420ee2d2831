package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.failed;
import static dev.opledger.checkout.CheckoutEffects.required;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.StepResult;
import java.util.Map;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * A compensation: after a step that followed a successful capture failed, gives the payment back
 * (refund_payment, keyed by the payment's id and the step's key), before the release.
 */
final class RefundNode implements GraphStep<CheckoutState> {

    static final String TOOL = "refund_payment";

    private final CheckoutEffects effects;

    RefundNode(CheckoutEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        if (!state.failed()) {
            return failed("refund: only a failed checkout refunds its payment");
        }
        Optional<String> paymentId = state.paymentId();
        if (paymentId.isEmpty()) {
            return failed("refund: no payment was captured");
        }
        return effects.perform(GraphRunner.leaseOf(config), CheckoutStep.REFUND, TOOL,
                Map.of("paymentId", paymentId.get()),
                result -> required(result, "refundId", CheckoutStep.REFUND, TOOL,
                        refundId -> Map.of(CheckoutState.REFUND, Map.of("refundId", refundId))));
    }
}

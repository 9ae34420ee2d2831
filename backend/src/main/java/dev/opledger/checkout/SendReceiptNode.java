package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.failed;
import static dev.opledger.checkout.CheckoutEffects.required;

import dev.opledger.effect.EffectReviews;
import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.StepResult;
import java.util.Map;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * Sends the receipt (send_message, never-repeat): a message can be neither recalled nor checked,
 * so after an unknown outcome the gateway does not send again and the operation waits for a person.
 */
final class SendReceiptNode implements GraphStep<CheckoutState> {

    static final String TOOL = "send_message";

    private final CheckoutEffects effects;

    SendReceiptNode(CheckoutEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        Optional<String> paymentId = state.paymentId();
        if (paymentId.isEmpty()) {
            return failed("receipt: no payment was captured");
        }
        return effects.perform(GraphRunner.leaseOf(config), CheckoutStep.RECEIPT, TOOL,
                Map.of("to", state.recipient(), "text", text(state, paymentId.get())),
                // a person's word that the message went out stands for the tool's answer they never saw
                result -> EffectReviews.confirmedByPerson(result) ? StepResult.next(Map.of(CheckoutState.RECEIPT, result))
                        : required(result, "messageId", CheckoutStep.RECEIPT, TOOL,
                                messageId -> Map.of(CheckoutState.RECEIPT, Map.of("messageId", messageId))));
    }

    /** The same for every run of the step: it is built from the state only. */
    static String text(CheckoutState state, String paymentId) {
        return "Thank you for your order: " + state.quantity() + " x " + state.sku() + ", "
                + state.amountText() + " " + state.currency() + " paid (payment " + paymentId + ").";
    }
}

package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.required;

import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.NodeActionWithConfig;

/**
 * Sends the receipt (send_message, never-repeat): a message can be neither recalled nor checked,
 * so after an unknown outcome the gateway does not send again and the operation waits for a person.
 */
final class SendReceiptNode implements NodeActionWithConfig<CheckoutState> {

    static final String TOOL = "send_message";

    private final CheckoutRuns runs;
    private final CheckoutEffects effects;

    SendReceiptNode(CheckoutRuns runs, CheckoutEffects effects) {
        this.runs = runs;
        this.effects = effects;
    }

    @Override
    public Map<String, Object> apply(CheckoutState state, RunnableConfig config) {
        String paymentId = state.paymentId().orElseThrow(
                () -> CheckoutStoppedException.failed("receipt: no payment was captured"));
        var result = effects.perform(runs.of(config), CheckoutStep.RECEIPT, TOOL,
                Map.of("to", state.recipient(), "text", text(state, paymentId)));
        return Map.of(CheckoutState.RECEIPT, Map.of("messageId", required(result, "messageId", CheckoutStep.RECEIPT, TOOL)));
    }

    /** The same for every run of the step: it is built from the state only. */
    static String text(CheckoutState state, String paymentId) {
        return "Thank you for your order: " + state.quantity() + " x " + state.sku() + ", "
                + state.amountText() + " " + state.currency() + " paid (payment " + paymentId + ").";
    }
}

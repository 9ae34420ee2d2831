package dev.opledger.checkout;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.StepResult;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * Gift-wraps the order (wrap_gift, keyed): a long-running tool whose server answers with a task;
 * the gateway stores the task's handle and polls it, so this step waits for the wrap as long as it
 * takes, and a run that resumes it (another node) polls the same task.
 */
final class WrapGiftNode implements GraphStep<CheckoutState> {

    static final String TOOL = "wrap_gift";

    private final CheckoutEffects effects;

    WrapGiftNode(CheckoutEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        LeaseGuard run = GraphRunner.leaseOf(config);
        String orderId = run.fence().operationId().toString();
        return effects.perform(run, CheckoutStep.WRAP, TOOL,
                Map.of("orderId", orderId, "sku", state.sku(), "quantity", state.quantity()),
                result -> CheckoutEffects.required(result, "wrapId", CheckoutStep.WRAP, TOOL,
                        wrapId -> Map.of(CheckoutState.WRAP, Map.of("wrapId", wrapId))));
    }
}

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
 * After a rejection, or as a compensation after a failed step, hands the reserved stock back
 * (release_inventory, keyed).
 */
final class ReleaseNode implements GraphStep<CheckoutState> {

    static final String TOOL = "release_inventory";

    private final CheckoutEffects effects;

    ReleaseNode(CheckoutEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(CheckoutState state, RunnableConfig config) {
        if (!state.rejected() && !state.failed()) {
            return failed("release: only a rejected or failed checkout releases its reservation");
        }
        Optional<String> reservationId = state.reservationId();
        if (reservationId.isEmpty()) {
            return failed("release: nothing was reserved");
        }
        return effects.perform(GraphRunner.leaseOf(config), CheckoutStep.RELEASE, TOOL,
                Map.of("reservationId", reservationId.get()),
                result -> required(result, "releaseId", CheckoutStep.RELEASE, TOOL,
                        releaseId -> Map.of(CheckoutState.RELEASE, Map.of("releaseId", releaseId))));
    }
}

package dev.opledger.checkout;

import static dev.opledger.checkout.CheckoutEffects.required;

import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.NodeActionWithConfig;

/** After a rejection, hands the reserved stock back (release_inventory, keyed). */
final class ReleaseNode implements NodeActionWithConfig<CheckoutState> {

    static final String TOOL = "release_inventory";

    private final CheckoutRuns runs;
    private final CheckoutEffects effects;

    ReleaseNode(CheckoutRuns runs, CheckoutEffects effects) {
        this.runs = runs;
        this.effects = effects;
    }

    @Override
    public Map<String, Object> apply(CheckoutState state, RunnableConfig config) {
        if (!state.rejected()) {
            throw CheckoutStoppedException.failed("release: only a rejected checkout releases its reservation");
        }
        String reservationId = state.reservationId().orElseThrow(
                () -> CheckoutStoppedException.failed("release: nothing was reserved"));
        var result = effects.perform(runs.of(config), CheckoutStep.RELEASE, TOOL, Map.of("reservationId", reservationId));
        return Map.of(CheckoutState.RELEASE, Map.of("releaseId", required(result, "releaseId", CheckoutStep.RELEASE, TOOL)));
    }
}

package dev.opledger.checkout;

import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectCheck;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.mcp.ToolRef;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How a checkout step makes its effect: only while the lease is held, always through the effect
 * gateway under the step's key and the lease's fence, and with the gateway's outcome turned into
 * the step's result or into the operation's end (refused → FAILED, needs review → NEEDS_REVIEW,
 * a record refused for a lost lease → the run stops).
 */
final class CheckoutEffects {

    private final EffectGateway gateway;
    private final String server;

    CheckoutEffects(EffectGateway gateway, String server) {
        this.gateway = gateway;
        this.server = server;
    }

    Map<String, Object> perform(CheckoutRun run, CheckoutStep step, String tool, Map<String, Object> arguments) {
        return perform(run, step, tool, arguments, null);
    }

    /** The tool's result, now or as recorded by an earlier run of this step. */
    Map<String, Object> perform(CheckoutRun run, CheckoutStep step, String tool, Map<String, Object> arguments,
            @Nullable EffectCheck check) {
        if (!run.lease().held()) {
            throw new CheckoutStoppedException(new ExecutionOutcome.LeaseLost("the heartbeat found lease "
                    + run.lease().fence() + " lost before step " + step.key()));
        }
        var effect = new Effect(run.lease().fence(), step.key(), new ToolRef(server, tool), arguments, check);
        return switch (gateway.perform(effect)) {
            case EffectOutcome.Done done -> done.result();
            case EffectOutcome.Refused refused ->
                    throw CheckoutStoppedException.failed(step.key() + ": " + tool + " refused: " + refused.error());
            case EffectOutcome.NeedsReview review ->
                    throw new CheckoutStoppedException(new ExecutionOutcome.NeedsReview(step.key() + ": " + review.reason()));
            case EffectOutcome.LeaseLost lost -> throw new CheckoutStoppedException(new ExecutionOutcome.LeaseLost(lost.refused()));
        };
    }

    /**
     * A value the tool's result must hold for the steps after it. Without it the effect happened
     * but the checkout cannot go on from it: a person looks.
     */
    static Object required(Map<String, Object> result, String name, CheckoutStep step, String tool) {
        Object value = result.get(name);
        if (value == null) {
            throw new CheckoutStoppedException(new ExecutionOutcome.NeedsReview(step.key() + ": " + tool
                    + " answered without " + name + " (it answered " + result.keySet() + ")"));
        }
        return value;
    }
}

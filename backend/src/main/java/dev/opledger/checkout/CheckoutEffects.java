package dev.opledger.checkout;

import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectCheck;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.StepResult;
import dev.opledger.mcp.ToolRef;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How a checkout step makes its effect: only while the lease is held, always through the effect
 * gateway under the step's key and the lease's fence, and with the gateway's outcome turned into
 * the step's state update or into the operation's end (refused, or given up by a person →
 * FAILED, after the compensations when something was reserved: {@link #failedAt}; needs review → NEEDS_REVIEW, a record refused for a lost lease → the run stops, STARTED
 * refused for a cancel requested → the run stops CANCELLED).
 */
final class CheckoutEffects {

    private final EffectGateway gateway;
    private final String server;

    CheckoutEffects(EffectGateway gateway, String server) {
        this.gateway = gateway;
        this.server = server;
    }

    StepResult perform(LeaseGuard run, CheckoutStep step, String tool, Map<String, Object> arguments,
            Function<Map<String, Object>, StepResult> then) {
        return perform(run, step, tool, arguments, null, then);
    }

    /** {@code then} of the tool's result, now or as recorded by an earlier run of this step; or the run's end. */
    StepResult perform(LeaseGuard run, CheckoutStep step, String tool, Map<String, Object> arguments,
            @Nullable EffectCheck check, Function<Map<String, Object>, StepResult> then) {
        if (!run.held()) {
            return StepResult.stop(new ExecutionOutcome.LeaseLost("the heartbeat found lease " + run.fence()
                    + " lost before step " + step.key()));
        }
        var effect = new Effect(run.fence(), step.key(), new ToolRef(server, tool), arguments, check);
        return switch (gateway.perform(effect)) {
            case EffectOutcome.Done done -> then.apply(done.result());
            case EffectOutcome.Refused refused -> failedAt(step, step.key() + ": " + tool + " refused: " + refused.error());
            case EffectOutcome.GivenUp givenUp -> failedAt(step, step.key() + ": " + tool + " " + givenUp.reason());
            case EffectOutcome.NeedsReview review ->
                    StepResult.stop(new ExecutionOutcome.NeedsReview(step.key() + ": " + review.reason()));
            case EffectOutcome.LeaseLost lost -> StepResult.stop(new ExecutionOutcome.LeaseLost(lost.refused()));
            case EffectOutcome.CancelRequested cancel -> StepResult.stop(new ExecutionOutcome.Cancelled(cancel.detail()));
        };
    }

    /**
     * A step's effect failed (refused, or given up by a person). Before anything was reserved the
     * operation ends FAILED at once. After the reservation the failure goes into the state and
     * the run goes on, so the planner routes to the compensations; a compensation that fails
     * records why in its own result, and the ones after it still run. Either way the failure is
     * in the step's checkpoint, so a resumed run goes on with the compensation, never back to it.
     */
    static StepResult failedAt(CheckoutStep step, String reason) {
        return switch (step) {
            case RESERVE -> failed(reason);
            case REFUND -> StepResult.next(Map.of(CheckoutState.REFUND, Map.of(CheckoutState.FAILED, reason)));
            case RELEASE -> StepResult.next(Map.of(CheckoutState.RELEASE, Map.of(CheckoutState.FAILED, reason)));
            default -> StepResult.next(Map.of(CheckoutState.FAILURE, Map.of("step", step.key(), "reason", reason)));
        };
    }

    /**
     * {@code update} of a value the tool's result must hold for the steps after it. Without it the
     * effect happened but the checkout cannot go on from it: a person looks.
     */
    static StepResult required(Map<String, Object> result, String name, CheckoutStep step, String tool,
            Function<Object, Map<String, Object>> update) {
        Object value = result.get(name);
        if (value == null) {
            return StepResult.stop(new ExecutionOutcome.NeedsReview(step.key() + ": " + tool + " answered without "
                    + name + " (it answered " + result.keySet() + ")"));
        }
        return StepResult.next(update.apply(value));
    }

    /**
     * The step cannot go on: the operation ends FAILED. The thread keeps the checkpoint before the
     * step, so if a person sends the operation back to the workers, the step runs again and its
     * effect record decides what its effect does.
     */
    static StepResult failed(String reason) {
        return StepResult.stop(new ExecutionOutcome.Failed(reason));
    }
}

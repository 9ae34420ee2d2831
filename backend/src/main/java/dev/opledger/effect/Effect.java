package dev.opledger.effect;

import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One intended tool call of an operation.
 *
 * @param fence the operation and the epoch of the lease the call is made in: every record of the
 *     effect is written only while the operation is RUNNING in that epoch
 * @param stepKey names the step within the operation, as {@link StepKey#value()} writes it
 *     ({@code capture}, {@code act#3}); the same step of a resumed run has the same key
 * @param arguments the tool's arguments; the gateway adds {@code operationId} and {@code stepKey}
 *     (and {@code idempotencyKey} for a keyed tool)
 * @param check for a check-then-write tool: tells whether the effect already landed
 */
public record Effect(Fence fence, String stepKey, ToolRef tool, Map<String, Object> arguments,
        @Nullable EffectCheck check) {

    public Effect {
        StepKey.parse(stepKey);
    }

    /** The effect of one run of a step: a fixed step's ({@link StepKey#fixed}) or a loop's n-th ({@link StepKey#nth}). */
    public Effect(Fence fence, StepKey stepKey, ToolRef tool, Map<String, Object> arguments,
            @Nullable EffectCheck check) {
        this(fence, stepKey.value(), tool, arguments, check);
    }

    public OperationId operationId() {
        return fence.operationId();
    }

    /** The idempotency key a keyed tool receives: the same for every repeat of this step. */
    public String idempotencyKey() {
        return operationId() + ":" + stepKey;
    }
}

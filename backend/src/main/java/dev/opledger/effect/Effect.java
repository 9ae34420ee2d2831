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
 * @param stepKey names the step within the operation; the same step of a resumed run has the same key
 * @param arguments the tool's arguments; the gateway adds {@code operationId} and {@code stepKey}
 *     (and {@code idempotencyKey} for a keyed tool)
 * @param check for a check-then-write tool: tells whether the effect already landed
 */
public record Effect(Fence fence, String stepKey, ToolRef tool, Map<String, Object> arguments,
        @Nullable EffectCheck check) {

    public OperationId operationId() {
        return fence.operationId();
    }

    /** The idempotency key a keyed tool receives: the same for every repeat of this step. */
    public String idempotencyKey() {
        return operationId() + ":" + stepKey;
    }
}

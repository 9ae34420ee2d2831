package dev.opledger.effect;

import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.OperationId;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One intended tool call of an operation.
 *
 * @param operationRef the ledger's key of the operation
 * @param stepKey names the step within the operation; the same step of a resumed run has the same key
 * @param arguments the tool's arguments; the gateway adds {@code operationId} and {@code stepKey}
 *     (and {@code idempotencyKey} for a keyed tool)
 * @param check for a check-then-write tool: tells whether the effect already landed
 */
public record Effect(long operationRef, OperationId operationId, String stepKey, ToolRef tool,
        Map<String, Object> arguments, @Nullable EffectCheck check) {

    /** The idempotency key a keyed tool receives: the same for every repeat of this step. */
    public String idempotencyKey() {
        return operationId + ":" + stepKey;
    }
}

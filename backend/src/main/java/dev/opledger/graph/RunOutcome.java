package dev.opledger.graph;

import dev.opledger.operation.OperationId;
import java.util.Map;
import java.util.UUID;

/**
 * Where a run left its thread, read from the thread's newest checkpoint. A step that ends the
 * run ({@link GraphStep}) is {@link Stopped}; a node that throws is not an outcome but a
 * {@link GraphRunFailedException}.
 */
public sealed interface RunOutcome {

    OperationId operationId();

    /** The newest checkpoint: what a resume starts from. */
    UUID checkpointId();

    /** The state in that checkpoint, in its JSON form (see {@link JsonStateSerializer}). */
    Map<String, Object> state();

    /** The graph reached its end; resuming the thread again runs no node. */
    record Completed(OperationId operationId, UUID checkpointId, Map<String, Object> state) implements RunOutcome {
    }

    /** An interrupt stopped the run; {@code nextNode} runs when the thread is resumed. */
    record Paused(OperationId operationId, UUID checkpointId, String nextNode, Map<String, Object> state)
            implements RunOutcome {
    }

    /**
     * A {@link GraphStep} ended the run before its own checkpoint: {@code nextNode} is that step,
     * which runs again from its start if the thread is resumed.
     */
    record Stopped(OperationId operationId, UUID checkpointId, String nextNode, Map<String, Object> state,
            ExecutionOutcome outcome) implements RunOutcome {
    }
}

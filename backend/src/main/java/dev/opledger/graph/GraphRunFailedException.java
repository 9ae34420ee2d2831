package dev.opledger.graph;

import dev.opledger.operation.OperationId;

/**
 * A node threw. The thread keeps the checkpoint written before that node, so a resume runs the
 * node again from its start; the cause is the node's own exception.
 */
public class GraphRunFailedException extends RuntimeException {

    private final OperationId operationId;

    public GraphRunFailedException(OperationId operationId, Throwable cause) {
        super("operation " + operationId + ": graph run failed: " + cause, cause);
        this.operationId = operationId;
    }

    public OperationId operationId() {
        return operationId;
    }
}

package dev.opledger.graph;

import dev.opledger.operation.OperationId;

/** This JVM is already running the operation's thread; a second run would race the first. */
public class GraphThreadBusyException extends RuntimeException {

    public GraphThreadBusyException(OperationId operationId) {
        super("operation " + operationId + " is already running in this node");
    }
}

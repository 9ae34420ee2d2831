package dev.opledger.graph.internal;

/** An operation type this node was given cannot be offered: its schema is unusable, or its name is taken. */
public class InvalidOperationTypeException extends RuntimeException {

    public InvalidOperationTypeException(String message) {
        super(message);
    }

    public InvalidOperationTypeException(String message, Throwable cause) {
        super(message, cause);
    }
}

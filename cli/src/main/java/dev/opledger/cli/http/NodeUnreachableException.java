package dev.opledger.cli.http;

import java.net.URI;

/** The node did not answer: not listening, the connection broke, or it took too long. */
public class NodeUnreachableException extends RuntimeException {

    public NodeUnreachableException(URI uri, Exception cause) {
        super("no answer from " + uri + ": " + (cause.getMessage() == null ? cause.getClass().getSimpleName()
                : cause.getMessage()), cause);
    }
}

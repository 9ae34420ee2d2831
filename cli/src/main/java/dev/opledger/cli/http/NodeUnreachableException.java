package dev.opledger.cli.http;

import java.net.ConnectException;
import java.net.URI;

/** The node did not answer: not listening, the connection broke, or it took too long. */
public class NodeUnreachableException extends RuntimeException {

    public NodeUnreachableException(URI uri, Exception cause) {
        super("no answer from " + uri + ": " + reason(cause), cause);
    }

    /** The first message down the cause chain (the JDK's HTTP client often wraps a bare one). */
    private static String reason(Throwable failure) {
        if (failure instanceof ConnectException && failure.getMessage() == null) {
            return "cannot connect (is a node listening there?)"; // the JDK says nothing more
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                return cause.getClass().getSimpleName() + ": " + cause.getMessage();
            }
        }
        return failure.getClass().getSimpleName();
    }
}

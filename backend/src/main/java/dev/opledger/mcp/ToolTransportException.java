package dev.opledger.mcp;

/**
 * The call's outcome is unknown: the server could not be reached, did not answer in time, or the
 * connection dropped after the request was sent. The effect may or may not have happened.
 */
public class ToolTransportException extends Exception {

    public ToolTransportException(String message, Throwable cause) {
        super(message, cause);
    }

    public ToolTransportException(String message) {
        super(message);
    }
}

package dev.opledger.mcp;

/**
 * The server could not be reached at all — the connection was refused or not made in time — so
 * nothing was sent: unlike other transport failures, the call did not happen. The effect gateway
 * waits for the server rather than count it as a call whose outcome is unknown.
 */
public class ToolUnreachableException extends ToolTransportException {

    public ToolUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}

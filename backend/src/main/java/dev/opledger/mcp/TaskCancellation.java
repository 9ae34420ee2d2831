package dev.opledger.mcp;

/** The answer to {@code tasks/cancel}: cooperative, so an acknowledgement says nothing about the task's end. */
public enum TaskCancellation {
    /** Acknowledged: the server knows the task; it may still end otherwise than cancelled. */
    ACKNOWLEDGED,
    /** The server does not know the task (-32602). */
    NOT_FOUND,
    /** The server refused the request (it has no tasks/cancel, say): the task goes on, or not. */
    REFUSED
}

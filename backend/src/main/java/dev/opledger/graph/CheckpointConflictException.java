package dev.opledger.graph;

import java.util.UUID;

/**
 * A put found the thread's history moved on since this saver last saw it: another writer (a
 * second node resuming the same operation, or a concurrent put) appended first. Nothing was
 * written; the thread's history is the other writer's. The caller lost the thread and must
 * stop running it.
 */
public class CheckpointConflictException extends RuntimeException {

    private final UUID threadId;

    public CheckpointConflictException(UUID threadId, String message, Throwable cause) {
        super(message, cause);
        this.threadId = threadId;
    }

    public CheckpointConflictException(UUID threadId, String message) {
        super(message);
        this.threadId = threadId;
    }

    public UUID threadId() {
        return threadId;
    }
}

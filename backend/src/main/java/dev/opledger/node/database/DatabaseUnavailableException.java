package dev.opledger.node.database;

/** No PostgreSQL can be used; the message says what to do about it, in one sentence. */
public class DatabaseUnavailableException extends RuntimeException {

    public DatabaseUnavailableException(String message) {
        super(message);
    }

    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

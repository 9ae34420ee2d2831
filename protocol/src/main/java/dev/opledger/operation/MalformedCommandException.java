package dev.opledger.operation;

/** The request body is not a command: not JSON, not an object, or not of the command's shape. */
public class MalformedCommandException extends RuntimeException {

    public MalformedCommandException(String message) {
        super(message);
    }
}

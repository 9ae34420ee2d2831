package dev.opledger.tools.toolkit;

/** The arguments of a call do not fit the tool's input schema; nothing was done. */
public class InvalidArgumentException extends RuntimeException {

    public InvalidArgumentException(String message) {
        super(message);
    }
}

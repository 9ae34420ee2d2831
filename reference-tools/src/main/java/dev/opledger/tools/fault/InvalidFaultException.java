package dev.opledger.tools.fault;

/** A fault specification that cannot be read; the call it came with is refused. */
public class InvalidFaultException extends RuntimeException {

    public InvalidFaultException(String message) {
        super(message);
    }
}

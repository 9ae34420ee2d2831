package dev.opledger.cli.store;

/** The operationId is stored with another body: sending this one would reuse the key. */
public class OperationConflictException extends RuntimeException {

    public OperationConflictException(String operationId) {
        super("operation " + operationId + " is stored with another body; 'retry' resends the stored one");
    }
}

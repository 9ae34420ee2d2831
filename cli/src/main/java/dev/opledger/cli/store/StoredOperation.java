package dev.opledger.cli.store;

import java.time.Instant;

/**
 * An operation a device submitted: its operationId and the exact request body, kept before the
 * first attempt so every retry sends the same bytes.
 */
public record StoredOperation(String operationId, byte[] body, Instant createdAt) {

    public StoredOperation {
        body = body.clone();
    }

    @Override
    public byte[] body() {
        return body.clone();
    }
}

package dev.opledger.attest;

import java.time.Instant;

/**
 * A device key as registered.
 *
 * @param replayed true when this answers a retried registration that had already succeeded
 */
public record RegisteredKey(byte[] keyId, AppId app, AttestEnvironment environment, Instant registeredAt,
        boolean replayed) {
}

package dev.opledger.attest;

import dev.opledger.attest.internal.Digests;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.PayloadHash;
import java.nio.ByteBuffer;

/**
 * What a device signs for one attempt of an operation (PROTOCOL.md): {@code challenge (32 bytes)
 * ‖ operationId (16 bytes, RFC 9562 order) ‖ payloadHash (32 bytes)}, 80 bytes, and its
 * SHA-256, the clientDataHash passed to {@code generateAssertion}. A key registration signs
 * SHA-256 of the challenge alone.
 */
public final class ClientData {

    public static final int CHALLENGE_BYTES = 32;

    private ClientData() {
    }

    public static byte[] ofAttempt(byte[] challenge, OperationId operationId, PayloadHash payloadHash) {
        if (challenge.length != CHALLENGE_BYTES) {
            throw new IllegalArgumentException("a challenge is " + CHALLENGE_BYTES + " bytes");
        }
        return ByteBuffer.allocate(CHALLENGE_BYTES + 16 + 32)
                .put(challenge).put(operationId.bytes()).put(payloadHash.bytes())
                .array();
    }

    public static byte[] hashOfAttempt(byte[] challenge, OperationId operationId, PayloadHash payloadHash) {
        return Digests.sha256(ofAttempt(challenge, operationId, payloadHash));
    }

    public static byte[] hashOfRegistration(byte[] challenge) {
        return Digests.sha256(challenge);
    }
}

package dev.opledger.cli.http;

import dev.opledger.operation.OperationId;
import java.util.Base64;

/**
 * The App Attest headers of one attempt of an operation: {@code Idempotency-Key}, {@code
 * App-Attest-Key-Id} (base64), {@code App-Attest-Challenge} (base64url, as issued) and {@code
 * App-Attest-Assertion} (base64).
 */
public record AttemptHeaders(OperationId operationId, byte[] keyId, Challenge challenge, byte[] assertion) {

    public String idempotencyKey() {
        return operationId.toString();
    }

    public String keyIdHeader() {
        return Base64.getEncoder().encodeToString(keyId);
    }

    public String challengeHeader() {
        return challenge.text();
    }

    public String assertionHeader() {
        return Base64.getEncoder().encodeToString(assertion);
    }
}

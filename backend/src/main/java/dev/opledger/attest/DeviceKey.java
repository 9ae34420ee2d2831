package dev.opledger.attest;

import dev.opledger.operation.SubjectId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A registered device key as the console shows it. */
public record DeviceKey(
        String keyId,
        SubjectId subject,
        AppId app,
        AttestEnvironment environment,
        long counter,
        Instant registeredAt,
        @Nullable Instant lastUsedAt,
        @Nullable Instant revokedAt,
        @Nullable String revokedBy,
        @Nullable String revokeReason) {

    public boolean revoked() {
        return revokedAt != null;
    }
}

package dev.opledger.claim;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** An accepted attempt of an operation, as the console shows it. */
public record AttemptRecord(
        String outcome, Instant receivedAt, UUID requestId, @Nullable String userAgent, @Nullable String clientAddress) {
}

package dev.opledger.claim;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An accepted attempt of an operation, as the console shows it.
 *
 * @param attestKeyId base64 keyId of the App Attest key whose assertion the attempt carried, or null
 * @param assertionCounter that assertion's counter, or null
 * @param channel the channel the attempt came through (REST, or MCP for an agent)
 */
public record AttemptRecord(
        String outcome, Instant receivedAt, UUID requestId, @Nullable String userAgent, @Nullable String clientAddress,
        @Nullable String attestKeyId, @Nullable Long assertionCounter, AttemptChannel channel) {

    /** An attempt over the REST API. */
    public AttemptRecord(String outcome, Instant receivedAt, UUID requestId, @Nullable String userAgent,
            @Nullable String clientAddress, @Nullable String attestKeyId, @Nullable Long assertionCounter) {
        this(outcome, receivedAt, requestId, userAgent, clientAddress, attestKeyId, assertionCounter,
                AttemptChannel.REST);
    }
}

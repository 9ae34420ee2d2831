package dev.opledger.claim;

import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * How an attempt arrived, recorded with it (and with a key-reuse conflict) so support staff can
 * tell retries apart. Never holds tokens, assertions or payloads.
 *
 * @param requestId the server's id for this HTTP request (also in the logs)
 * @param userAgent the client's User-Agent, truncated
 * @param clientAddress the client's IP address as the node saw it
 * @param attestKeyId the App Attest key whose assertion this attempt carried; null when unattested
 * @param assertionCounter that assertion's counter; null when unattested
 * @param channel the channel the attempt came through
 */
public record AttemptContext(UUID requestId, @Nullable String userAgent, @Nullable String clientAddress,
        byte @Nullable [] attestKeyId, @Nullable Long assertionCounter, AttemptChannel channel) {

    /** An attempt over the REST API. */
    public AttemptContext(UUID requestId, @Nullable String userAgent, @Nullable String clientAddress,
            byte @Nullable [] attestKeyId, @Nullable Long assertionCounter) {
        this(requestId, userAgent, clientAddress, attestKeyId, assertionCounter, AttemptChannel.REST);
    }

    /** An attempt over the REST API without App Attest. */
    public static AttemptContext unattested(UUID requestId, @Nullable String userAgent, @Nullable String clientAddress) {
        return new AttemptContext(requestId, userAgent, clientAddress, null, null);
    }

    /** An agent's attempt over MCP: App Attest does not apply. */
    public static AttemptContext agent(UUID requestId, @Nullable String userAgent, @Nullable String clientAddress) {
        return new AttemptContext(requestId, userAgent, clientAddress, null, null, AttemptChannel.MCP);
    }

    public boolean attested() {
        return attestKeyId != null;
    }

    public static final int MAX_USER_AGENT_LENGTH = 256;

    public AttemptContext {
        if (userAgent != null && userAgent.length() > MAX_USER_AGENT_LENGTH) {
            userAgent = userAgent.substring(0, MAX_USER_AGENT_LENGTH);
        }
    }
}

package dev.opledger.submission;

import dev.opledger.attest.AttemptHeaders;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One attempt at an operation, as a channel received it.
 *
 * @param subject who asks, from the verified token
 * @param operationId the caller's key for the operation
 * @param body the command's bytes as received: {@code {"type": …, "arguments": …}} in UTF-8 JSON;
 *     the payload hash is computed from these bytes (after JCS canonicalisation, so formatting
 *     does not matter), so every channel must pass the command it got
 * @param proof what vouches for the attempt besides the token: a device's App Attest headers, or
 *     nothing, for an agent over MCP
 * @param arrival how the attempt arrived, recorded with it
 */
public record Submission(SubjectId subject, OperationId operationId, byte[] body, Proof proof, Arrival arrival) {

    /**
     * @param requestId the server's id for this request (also in the logs)
     * @param userAgent the client's User-Agent, as sent
     * @param clientAddress the client's IP address as the node saw it
     */
    public record Arrival(UUID requestId, @Nullable String userAgent, @Nullable String clientAddress) {
    }

    /**
     * Which rules vouch for the attempt. The type decides the channel recorded with the attempt
     * and whether App Attest applies, so a channel cannot choose to skip App Attest by leaving a
     * header out: the REST API only ever builds {@link Device} (its headers may be absent, and
     * {@code opledger.attest.mode} decides what that means), and only the MCP server builds
     * {@link Agent} (ModularityTests checks both).
     */
    public sealed interface Proof {

        /** A device's attempt over the REST API: App Attest applies as {@code opledger.attest.mode} says. */
        record Device(AttemptHeaders headers) implements Proof {
        }

        /**
         * An agent's attempt over MCP, authenticated by its token alone: App Attest is a device
         * proof and does not apply to agents. Who may submit this way is the MCP server's
         * authorization (docs/mcp.md).
         */
        record Agent() implements Proof {
        }
    }
}

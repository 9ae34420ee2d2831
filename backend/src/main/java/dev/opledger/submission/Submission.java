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
 *     the payload hash is computed from these bytes, so every channel must pass the command it got,
 *     not a re-encoding of its own
 * @param proof the App Attest headers of this attempt, as received (any may be absent)
 * @param arrival how the attempt arrived, recorded with it
 */
public record Submission(SubjectId subject, OperationId operationId, byte[] body, AttemptHeaders proof,
        Arrival arrival) {

    /**
     * @param requestId the server's id for this request (also in the logs)
     * @param userAgent the client's User-Agent, as sent
     * @param clientAddress the client's IP address as the node saw it
     */
    public record Arrival(UUID requestId, @Nullable String userAgent, @Nullable String clientAddress) {
    }
}

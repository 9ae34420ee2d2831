package dev.opledger.claim;

import dev.opledger.operation.OperationId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A person's decision on an operation that waited for approval. The operation's graph reads it
 * when it resumes: approved, it goes on to the effect that needed approval; rejected, it undoes
 * what it did and ends FAILED.
 */
public record ApprovalDecision(OperationId operationId, boolean approved, String actor, @Nullable String reason,
        Instant decidedAt) {
}

package dev.opledger.claim;

import dev.opledger.operation.OperationStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One status change of an operation, for its timeline. */
public record TransitionRecord(@Nullable OperationStatus from, OperationStatus to, Instant at, @Nullable String nodeId,
        @Nullable String reason) {
}

package dev.opledger.feed;

import dev.opledger.operation.OperationId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** One thing that happened to one of a subject's operations, as its event said. */
public record FeedEntry(OperationId operationId, int sequence, String type, String status, @Nullable String tool,
        @Nullable String stepKey, Instant occurredAt) {
}

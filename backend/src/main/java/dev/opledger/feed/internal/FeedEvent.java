package dev.opledger.feed.internal;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** An event as the feed reads it from the topic. */
record FeedEvent(UUID eventId, UUID operationId, String subjectId, int sequence, String type, String status,
        @Nullable String tool, @Nullable String stepKey, Instant occurredAt) {
}

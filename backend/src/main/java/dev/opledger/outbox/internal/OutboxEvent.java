package dev.opledger.outbox.internal;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One outbox row as the relay publishes it; {@code payload} is the type's own fields, a JSON object;
 * {@code traceContext} the column as stored, not validated yet ({@link StoredTraceContext#parse}).
 */
record OutboxEvent(long id, long operationRef, UUID eventId, UUID operationId, String subjectId, int sequence,
        String type, String status, @Nullable String tool, @Nullable String stepKey, Instant occurredAt,
        String payload, @Nullable String traceContext) {
}

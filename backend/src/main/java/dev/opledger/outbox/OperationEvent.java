package dev.opledger.outbox;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One event of an operation as its outbox row holds it.
 *
 * @param sequence its number within the operation, from 1
 * @param status the operation's status after the change; for tool events the effect record's
 * @param tool for tool events, the tool called
 * @param stepKey for tool events, the step of the run that called it
 * @param occurredAt when the state change committed
 * @param publishedAt when the relay published it to Kafka; null while it waits in the outbox
 * @param eventId its identity on Kafka ({@code ce_id}), on which consumers dedupe
 */
public record OperationEvent(int sequence, EventType type, String status, @Nullable String tool,
        @Nullable String stepKey, Instant occurredAt, @Nullable Instant publishedAt, UUID eventId) {

    public boolean published() {
        return publishedAt != null;
    }
}

package dev.opledger.outbox;

import java.time.Duration;
import java.util.List;

/**
 * The events of one operation still in the outbox, by sequence.
 *
 * @param purged how many earlier events are no longer there: published more than
 *     {@code retention} ago and purged (they are on Kafka; the ledger's own timeline keeps the
 *     state changes)
 * @param retention how long this node keeps published rows ({@code opledger.events.retention})
 */
public record OperationEvents(List<OperationEvent> events, int purged, Duration retention) {

    public OperationEvents {
        events = List.copyOf(events);
    }
}

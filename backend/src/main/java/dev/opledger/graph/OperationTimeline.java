package dev.opledger.graph;

import dev.opledger.claim.OperationDetail;
import java.util.List;

/**
 * An operation as the console's detail shows it: what the ledger holds, and everything that
 * happened to it in time order (attempts, status changes, checkpoints, effects, a cancel).
 *
 * @param entries oldest first; entries at the same instant keep the order attempt, status change,
 *     checkpoint, effect, cancel
 */
public record OperationTimeline(OperationDetail operation, List<TimelineEntry> entries) {

    public OperationTimeline {
        entries = List.copyOf(entries);
    }
}

package dev.opledger.claim;

import dev.opledger.operation.Fence;
import java.util.Set;

/**
 * What one heartbeat found, from the rows it renewed (no query of its own).
 *
 * @param held the leases the node still holds (a lease it lost is missing)
 * @param cancelPending of those, the ones whose operation has a cancel pending: a long step can
 *        stop without waiting for its next effect's write to be refused
 */
public record Heartbeat(Set<Fence> held, Set<Fence> cancelPending) {

    public static final Heartbeat NONE = new Heartbeat(Set.of(), Set.of());

    public Heartbeat {
        held = Set.copyOf(held);
        cancelPending = Set.copyOf(cancelPending);
    }
}

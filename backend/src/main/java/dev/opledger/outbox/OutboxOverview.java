package dev.opledger.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The outbox at one moment, all times the database's.
 *
 * @param at when it was read
 * @param backlog rows not yet published
 * @param oldestUnpublished when the oldest of them occurred; null when there are none
 * @param publishedLastMinute rows published in the minute before {@code at}: the publish rate
 * @param lastPublished when the relay last published; null when no published row is left
 * @param relay who holds the relay's election; null when no node ever has
 * @param localRelay the name of this node's relay; null when events are off on this node
 *     ({@code opledger.events.enabled}), whose rows another node's relay then publishes
 */
public record OutboxOverview(Instant at, long backlog, @Nullable Instant oldestUnpublished, long publishedLastMinute,
        @Nullable Instant lastPublished, @Nullable Relay relay, @Nullable String localRelay) {

    /**
     * The election as it stands.
     *
     * @param holder the node that won it last
     * @param epoch its term: each takeover increments it, and fences the marks of the one before
     * @param expiresAt until when the holder has it without renewing (it renews in every batch);
     *     null when the holder gave it up (it stopped)
     * @param current whether that is still ahead; if not, the next node that tries takes it over
     */
    public record Relay(String holder, long epoch, @Nullable Instant expiresAt, boolean current) {
    }

    /** The relay lag: how long the oldest unpublished event has been waiting; empty with none waiting. */
    public Optional<Duration> lag() {
        return Optional.ofNullable(oldestUnpublished).map(oldest -> Duration.between(oldest, at));
    }

    /** Whether this node's relay holds the election now. */
    public boolean heldHere() {
        return relay != null && relay.current() && relay.holder().equals(localRelay);
    }
}

package dev.opledger.graph.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Where one saver last saw each thread: the head it read or wrote, and the checkpoint the next
 * put derives from. A put is accepted only while the head is still the one this saver saw, so
 * a second node that appended meanwhile turns this node's put into a conflict rather than a
 * silent lost update. Bounded: a forgotten thread's next put is checked by the primary key only.
 */
public final class ThreadPositions {

    private static final long MAX_THREADS = 100_000;

    private final Cache<UUID, Position> positions = Caffeine.newBuilder().maximumSize(MAX_THREADS).build();

    /**
     * @param base the checkpoint a put derives from (its parent); null for an empty thread
     * @param head the thread's newest live checkpoint when it was seen; null for an empty thread
     */
    public record Position(@Nullable UUID base, @Nullable UUID head) {
    }

    public void saw(UUID thread, @Nullable UUID base, @Nullable UUID head) {
        positions.put(thread, new Position(base, head));
    }

    public Optional<Position> of(UUID thread) {
        return Optional.ofNullable(positions.getIfPresent(thread));
    }

    public void forget(UUID thread) {
        positions.invalidate(thread);
    }
}

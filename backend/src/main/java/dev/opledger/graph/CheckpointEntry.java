package dev.opledger.graph;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint of a thread as the timeline shows it (no state).
 *
 * @param seq the checkpoint's position in the thread's log, from 1
 * @param parentId the checkpoint it was derived from; null for a thread's first checkpoint
 * @param nodeId the node that had just run ({@code __START__} for the first checkpoint)
 * @param nextNodeId the node a resume runs next ({@code __END__} once the graph finished)
 */
public record CheckpointEntry(int seq, UUID checkpointId, @Nullable UUID parentId, String nodeId, String nextNodeId,
        Instant createdAt) {
}

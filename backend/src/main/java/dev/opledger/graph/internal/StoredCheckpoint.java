package dev.opledger.graph.internal;

import java.time.Instant;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** One row of {@code graph_checkpoint}, the state still as the JSON text PostgreSQL returned. */
public record StoredCheckpoint(int seq, UUID checkpointId, @Nullable UUID parentId, String nodeId,
        String nextNodeId, String stateJson, Instant createdAt) {
}

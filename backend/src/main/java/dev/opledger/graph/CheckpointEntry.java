package dev.opledger.graph;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * One checkpoint of a thread as the timeline shows it: where it is, and a summary of its state
 * (not the state's values).
 *
 * @param seq the checkpoint's position in the thread's log, from 1
 * @param parentId the checkpoint it was derived from; null for a thread's first checkpoint
 * @param nodeId the node that had just run ({@code __START__} for the first checkpoint)
 * @param nextNodeId the node a resume runs next ({@code __END__} once the graph finished)
 * @param stateKeys the names at the top of the state it holds, in order (the command's arguments
 *     and what each step recorded so far), as a summary of the state without its values
 * @param stateBytes the size of the state's JSON text, in bytes
 */
public record CheckpointEntry(int seq, UUID checkpointId, @Nullable UUID parentId, String nodeId, String nextNodeId,
        Instant createdAt, List<String> stateKeys, long stateBytes) {

    public CheckpointEntry {
        stateKeys = List.copyOf(stateKeys);
    }
}

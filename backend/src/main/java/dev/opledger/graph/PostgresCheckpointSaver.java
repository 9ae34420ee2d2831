package dev.opledger.graph;

import dev.opledger.effect.RunWrites;
import dev.opledger.graph.internal.CheckpointTable;
import dev.opledger.graph.internal.StateJson;
import dev.opledger.graph.internal.StoredCheckpoint;
import dev.opledger.graph.internal.ThreadPositions;
import dev.opledger.graph.internal.ThreadPositions.Position;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.Fence;
import dev.opledger.operation.SqlStatement;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * langgraph4j's checkpoint saver on the project's PostgreSQL ({@code graph_checkpoint}), one
 * append-only log per thread, the thread named by an operationId. Every method is at most one
 * SQL statement (during a run, the head it read or appended is served again without one);
 * nothing is locked in the JVM and no row is ever updated.
 *
 * <ul>
 *   <li>{@link #put} appends, also when the config names a checkpoint (langgraph4j's memory
 *       saver would replace that one in place): a state update or a replay from an older
 *       checkpoint adds to the history, with the checkpoint it started from as parent.</li>
 *   <li>{@link #get} reads the named checkpoint, or the newest; {@link #list} newest first.</li>
 *   <li>{@link #release} is langgraph4j's end of a thread's run ({@code releaseThread}): the
 *       checkpoints so far are returned and stop being state to resume (a new run on the thread
 *       starts empty); their rows stay as history.</li>
 * </ul>
 *
 * <p>Concurrency: a put is accepted only if the thread's newest checkpoint is still the one this
 * saver last read or wrote for it, and two puts that saw the same newest checkpoint cannot both
 * land (they take the same position, which is the primary key). Either case throws
 * {@link CheckpointConflictException} and writes nothing, so two nodes running one thread by
 * mistake cannot fork or interleave its history: the later writer fails. What the saver does
 * not do is keep them from both running nodes: the worker's lease must (and effects must go
 * through the effect gateway, as any node may run again). A thread run under a lease
 * ({@link #fenceWith}) is fenced too: a put is accepted only while the operation is RUNNING in the
 * lease's epoch, else it throws {@link CheckpointFencedException} and writes nothing, so a node
 * whose lease was taken over cannot add to the history. Within one JVM, one saver serves many
 * threads but must not run the same thread twice at once ({@link GraphRunner} refuses that).
 */
public final class PostgresCheckpointSaver implements BaseCheckpointSaver {

    private final CheckpointTable table;
    private final ThreadPositions positions = new ThreadPositions();
    private final Map<UUID, LeaseGuard> leases = new ConcurrentHashMap<>();
    // The thread's newest checkpoint, as this saver last read or appended it, kept only while a
    // run of the thread is under way here (enter … forget): the run is the thread's only writer
    // (GraphRunner runs a thread once at a time per JVM, the lease keeps other nodes out, and an
    // append is checked against the head this saver saw), so its own reads of the head between
    // puts need no round trip: langgraph4j's read at the start of a run, after the runner's, and
    // the runner's at its end. Empty: the thread has no live checkpoint.
    private final Map<UUID, Optional<StoredCheckpoint>> runHeads = new ConcurrentHashMap<>();
    private final Map<UUID, Boolean> inRun = new ConcurrentHashMap<>();

    private final @Nullable RunWrites held;

    public PostgresCheckpointSaver(DataSource dataSource) {
        this(dataSource, null);
    }

    /**
     * With {@code held}: during a worker's run, the writes the run held (the step's effect
     * outcome) commit with the step's checkpoint ({@link RunWrites}), on the same DataSource.
     */
    public PostgresCheckpointSaver(DataSource dataSource, @Nullable RunWrites held) {
        this.table = new CheckpointTable(new JdbcTemplate(dataSource));
        this.held = held;
    }

    @Nullable RunWrites held() {
        return held;
    }

    @Override
    public Collection<Checkpoint> list(RunnableConfig config) {
        return table.live(thread(config)).stream().map(PostgresCheckpointSaver::checkpoint).toList();
    }

    @Override
    public Optional<Checkpoint> get(RunnableConfig config) {
        UUID thread = thread(config);
        if (config.checkPointId().isPresent()) {
            UUID id = checkpointId(config.checkPointId().get());
            runHeads.remove(thread); // what the run appends next follows this one, not the head
            var found = table.byId(thread, id);
            found.ifPresent(f -> positions.saw(thread, id, f.head()));
            return found.map(f -> checkpoint(f.checkpoint()));
        }
        var latest = newest(thread);
        UUID head = latest.map(StoredCheckpoint::checkpointId).orElse(null);
        positions.saw(thread, head, head);
        return latest.map(PostgresCheckpointSaver::checkpoint);
    }

    @Override
    public RunnableConfig put(RunnableConfig config, Checkpoint checkpoint) {
        UUID thread = thread(config);
        UUID id = checkpointId(checkpoint.getId());
        Optional<Position> seen = positions.of(thread);
        UUID parent = config.checkPointId().map(PostgresCheckpointSaver::checkpointId)
                .orElse(seen.map(Position::base).orElse(null));
        UUID expectedHead = seen.map(Position::head).orElse(null);
        LeaseGuard lease = leases.get(thread);
        @Nullable Fence fence = lease == null ? null : lease.fence();
        String stateJson = StateJson.write(checkpoint.getState());
        var append = new CheckpointTable.Append(id, checkpoint.getNodeId(), checkpoint.getNextNodeId(),
                stateJson, parent, seen.isPresent(), expectedHead, fence == null ? null : fence.epoch());
        if (held != null && seen.isPresent() && fence != null
                && (expectedHead == null || last(thread, checkpoint))
                && hold(thread, id, parent, checkpoint, stateJson, append)) {
            return RunnableConfig.builder(config).checkPointId(checkpoint.getId()).build();
        }
        Optional<Integer> seq;
        try {
            if (held == null) {
                seq = table.append(thread, append);
            } else {
                var operation = new OperationId(thread);
                // fenced, the append is sent with the held writes in one round trip; unfenced, it is not
                // (a refused held write must leave it unwritten: RunWrites#together(OperationId, Function))
                var together = fence != null
                        ? held.together(operation, rowLocked -> table.appending(thread, append, rowLocked))
                        : held.together(operation, () -> table.append(thread, append, held.rowLocked(operation)));
                if (together.held() == RunWrites.Held.REFUSED) {
                    // the step's effect outcome was refused by the lease's fence: neither it nor the checkpoint is written
                    if (fence != null) {
                        throw new CheckpointFencedException(fence, checkpoint.getNodeId());
                    }
                    throw new CheckpointConflictException(thread, "thread " + thread + ": the write held for "
                            + "checkpoint after node " + checkpoint.getNodeId() + " was refused; not written");
                }
                seq = together.result();
            }
        } catch (DuplicateKeyException e) {
            throw new CheckpointConflictException(thread, "thread " + thread + ": another writer appended at the same "
                    + "position, or checkpoint " + id + " is already stored; checkpoint after node "
                    + checkpoint.getNodeId() + " not written", e);
        }
        if (seq.isEmpty() && fence != null && !table.fenceHolds(thread, fence.epoch())) {
            throw new CheckpointFencedException(fence, checkpoint.getNodeId());
        }
        if (seq.isEmpty()) {
            throw new CheckpointConflictException(thread, "thread " + thread + " moved on since this saver saw "
                    + (expectedHead == null ? "it empty" : "checkpoint " + expectedHead)
                    + "; checkpoint after node " + checkpoint.getNodeId() + " not written");
        }
        positions.saw(thread, id, id);
        if (inRun.containsKey(thread)) {
            runHeads.put(thread, Optional.of(new StoredCheckpoint(seq.get(), id, parent, checkpoint.getNodeId(),
                    checkpoint.getNextNodeId(), stateJson, Instant.now())));
        }
        return RunnableConfig.builder(config).checkPointId(checkpoint.getId()).build();
    }

    @Override
    public Tag release(RunnableConfig config) {
        UUID thread = thread(config);
        runHeads.remove(thread);
        var released = table.release(thread).stream().map(PostgresCheckpointSaver::checkpoint).toList();
        positions.saw(thread, null, null);
        return new Tag(threadId(config), released);
    }

    /** Until {@link #forget}, every put on the lease's operation is conditional on the lease's (current) epoch. */
    void fenceWith(LeaseGuard lease) {
        leases.put(lease.fence().operationId().value(), lease);
    }

    /**
     * Two checkpoints of a worker's run are held for the run's next transaction rather than
     * written on their own ({@link RunWrites}). The first, on an empty thread (its input): with the
     * first effect's STARTED, or the next checkpoint, or the run's end. Until it commits nothing
     * is lost by a crash: a thread without a checkpoint starts again from the operation's command,
     * the same input. And the last ({@link #last}), with the end of the run, where the worker
     * carries what the run held to it. False: not held.
     */
    private boolean hold(UUID thread, UUID id, @Nullable UUID parent, Checkpoint checkpoint, String stateJson,
            CheckpointTable.Append append) {
        var operation = new OperationId(thread);
        boolean holding = held.hold(operation, new RunWrites.Write() {
            @Override
            public boolean write() {
                return table.append(thread, append, held.rowLocked(operation)).isPresent();
            }

            @Override
            public SqlStatement<Boolean> statement(boolean rowLocked) {
                return table.appendingHeld(thread, append, rowLocked);
            }
        });
        if (holding) {
            positions.saw(thread, id, id);
            // seq 0: not known before it is written, and not used from this memory
            runHeads.put(thread, Optional.of(new StoredCheckpoint(0, id, parent, checkpoint.getNodeId(),
                    checkpoint.getNextNodeId(), stateJson, Instant.now())));
        }
        return holding;
    }

    /**
     * The run's last checkpoint (its next node is the graph's end) in a worker's run whose end
     * is to commit with what the run held ({@link RunWrites#carryToRunEnd}): the last step's
     * outcome, this checkpoint and the run's end become one transaction.
     */
    private boolean last(UUID thread, Checkpoint checkpoint) {
        return StateGraph.END.equals(checkpoint.getNextNodeId()) && held != null
                && held.carried(new OperationId(thread));
    }

    /** A run of the thread begins here: until {@link #forget}, the head it reads or appends is remembered. */
    void enter(OperationId operationId) {
        runHeads.remove(operationId.value());
        inRun.put(operationId.value(), Boolean.TRUE);
    }

    /** During a run here: the thread is known to have no checkpoint, so its first read costs no statement. */
    void assumeEmpty(OperationId operationId) {
        if (inRun.containsKey(operationId.value())) {
            runHeads.put(operationId.value(), Optional.empty());
        }
    }

    /** Drops what this saver remembers of the thread, its lease included; its next read starts afresh. */
    void forget(OperationId operationId) {
        inRun.remove(operationId.value());
        runHeads.remove(operationId.value());
        positions.forget(operationId.value());
        leases.remove(operationId.value());
    }

    /**
     * The thread's newest live checkpoint: during a run here, as this saver last read or
     * appended it (read once, at the run's start); otherwise read.
     */
    Optional<StoredCheckpoint> newest(UUID thread) {
        Optional<StoredCheckpoint> known = runHeads.get(thread);
        if (known != null) {
            return known;
        }
        Optional<StoredCheckpoint> latest = table.latest(thread);
        if (inRun.containsKey(thread)) {
            runHeads.put(thread, latest);
        }
        return latest;
    }

    CheckpointTable table() {
        return table;
    }

    private UUID thread(RunnableConfig config) {
        String threadId = threadId(config);
        try {
            return OperationId.parse(threadId).value();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a thread is an operation: thread_id must be an operationId, not \""
                    + threadId + "\"", e);
        }
    }

    private static UUID checkpointId(@Nullable String id) {
        if (id == null) {
            throw new IllegalArgumentException("a checkpoint needs an id");
        }
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("checkpoint ids are UUIDs (as langgraph4j makes them), not \"" + id + "\"", e);
        }
    }

    static Checkpoint checkpoint(StoredCheckpoint stored) {
        return Checkpoint.builder()
                .id(stored.checkpointId().toString())
                .state(StateJson.read(stored.stateJson()))
                .nodeId(stored.nodeId())
                .nextNodeId(stored.nextNodeId())
                .build();
    }
}

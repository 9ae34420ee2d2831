package dev.opledger.graph.internal;

import dev.opledger.effect.RunWrites;
import dev.opledger.graph.CheckpointEntry;
import dev.opledger.operation.SqlStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The statements on {@code graph_checkpoint}, each one round trip in autocommit. "Live" rows
 * are those after the thread's last release; langgraph4j's reads see only those, the history
 * sees every row.
 */
public final class CheckpointTable {

    private static final String RELEASED_UP_TO =
            "(SELECT coalesce(max(up_to_seq), 0) FROM graph_thread_release WHERE thread_id = ?)";

    private static final String COLUMNS =
            "c.seq, c.checkpoint_id, c.parent_id, c.node_id, c.next_node_id, c.state::text AS state, c.created_at";

    private static final String LATEST = "SELECT " + COLUMNS + " FROM graph_checkpoint c "
            + "WHERE c.thread_id = ? AND c.seq > " + RELEASED_UP_TO + " ORDER BY c.seq DESC LIMIT 1";

    private static final String LIVE = "SELECT " + COLUMNS + " FROM graph_checkpoint c "
            + "WHERE c.thread_id = ? AND c.seq > " + RELEASED_UP_TO + " ORDER BY c.seq DESC";

    private static final String BY_ID = """
            WITH live AS (SELECT %s AS up_to)
            SELECT %s,
                   (SELECT h.checkpoint_id FROM graph_checkpoint h
                     WHERE h.thread_id = c.thread_id ORDER BY h.seq DESC LIMIT 1) AS head_id
            FROM graph_checkpoint c, live
            WHERE c.thread_id = ? AND c.checkpoint_id = ? AND c.seq > live.up_to
            """.formatted(RELEASED_UP_TO, COLUMNS);

    /**
     * Appends at the head's seq + 1. With an expected head, inserts nothing when the thread's
     * live head is another checkpoint; a concurrent writer that computed the same seq makes one
     * of the two inserts fail on the primary key. With a lease epoch, inserts nothing unless the
     * operation (the thread) is RUNNING in that epoch, its row locked until the insert commits, so
     * a takeover waits for it or the insert sees the takeover. The lock is FOR NO KEY UPDATE, the
     * mode of the fences of the writes a checkpoint commits with (a step's STARTED, the end of the
     * run): FOR SHARE would make a takeover wait no differently, but the write after it in the
     * same transaction then upgraded it, one more WAL record for the same row (issue 13).
     * {@link #APPEND_UNDER_HELD_LOCK} checks the same without locking, for a transaction that holds
     * the row's lock already. Answers the new seq, no row when nothing was inserted.
     */
    private static final String APPEND_HEAD = """
            WITH released AS (SELECT %s AS up_to),
                 fence AS (SELECT 1 FROM operation WHERE operation_id = ? AND status = 'RUNNING' AND lease_epoch = ?
                           %s),
                 last AS (SELECT seq, checkpoint_id FROM graph_checkpoint WHERE thread_id = ?
                          ORDER BY seq DESC LIMIT 1),
                 head AS (SELECT coalesce(last.seq, 0) AS seq,
                                 CASE WHEN last.seq > released.up_to THEN last.checkpoint_id END AS checkpoint_id
                          FROM released LEFT JOIN last ON true)
            """;

    private static final String INSERT = """
            INSERT INTO graph_checkpoint (thread_id, seq, checkpoint_id, parent_id, node_id, next_node_id, state)
            SELECT ?, head.seq + 1, ?, coalesce(?::uuid, head.checkpoint_id), ?, ?, ?::jsonb
            FROM head
            WHERE (NOT ? OR head.checkpoint_id IS NOT DISTINCT FROM ?::uuid)
              AND (?::bigint IS NULL OR EXISTS (SELECT 1 FROM fence))
            RETURNING seq
            """;

    /**
     * Appends at the head's seq + 1. With an expected head, inserts nothing when the thread's
     * live head is another checkpoint; a concurrent writer that computed the same seq makes one
     * of the two inserts fail on the primary key. With a lease epoch, inserts nothing unless the
     * operation (the thread) is RUNNING in that epoch, its row locked until the insert commits, so
     * a takeover waits for it or the insert sees the takeover. The lock is FOR NO KEY UPDATE, the
     * mode of the fences of the writes a checkpoint commits with (a step's STARTED, the end of the
     * run): FOR SHARE would make a takeover wait no differently, but the write after it in the
     * same transaction then upgraded it, one more WAL record for the same row (issue 13).
     * {@link #APPEND_UNDER_HELD_LOCK} checks the same without locking, for a transaction that holds
     * the row's lock already. Answers the new seq, no row when nothing was inserted.
     */
    private static final String APPEND = APPEND_HEAD + INSERT;

    private static final int APPEND_PARAMETERS = 13;

    private static final String APPEND_LOCKING = APPEND.formatted(RELEASED_UP_TO, "FOR NO KEY UPDATE");

    /**
     * As {@link #APPEND}, in a transaction whose earlier fenced write locked the operation's row
     * (it is locked until the commit, so the check cannot go stale): the fence is a plain read,
     * which sees the transaction's own writes. Locking a row version the transaction wrote itself
     * would write a WAL record for nothing.
     */
    private static final String APPEND_UNDER_HELD_LOCK = APPEND.formatted(RELEASED_UP_TO, "");

    /**
     * {@link #APPEND} as a held write of a worker's run, sent with the writes of its transaction in
     * one round trip ({@link RunWrites.Write#statement}): answers whether the fence held (false:
     * nothing inserted), and when the fence held but the thread's head was not the expected one it
     * fails ({@code held_write_refused}), so that the statements sent with it are not written either.
     */
    private static final String HELD_APPEND = APPEND_HEAD + ", inserted AS (\n" + INSERT + ")\n" + """
            SELECT CASE WHEN EXISTS (SELECT 1 FROM inserted) THEN true
                        WHEN NOT EXISTS (SELECT 1 FROM fence) THEN false
                        ELSE held_write_refused('the checkpoint was not appended: its thread moved on') END
            """;

    private static final String HELD_APPEND_LOCKING = HELD_APPEND.formatted(RELEASED_UP_TO, "FOR NO KEY UPDATE");

    private static final String HELD_APPEND_UNDER_HELD_LOCK = HELD_APPEND.formatted(RELEASED_UP_TO, "");

    private static final String RELEASE = """
            WITH prior AS (SELECT %s AS up_to),
                 head AS (SELECT max(seq) AS seq FROM graph_checkpoint WHERE thread_id = ?),
                 released AS (
                   INSERT INTO graph_thread_release (thread_id, up_to_seq)
                   SELECT ?, head.seq FROM head, prior WHERE head.seq > prior.up_to
                   ON CONFLICT DO NOTHING
                   RETURNING up_to_seq)
            SELECT %s FROM graph_checkpoint c, prior, released
            WHERE c.thread_id = ? AND c.seq > prior.up_to AND c.seq <= released.up_to_seq
            ORDER BY c.seq DESC
            """.formatted(RELEASED_UP_TO, COLUMNS);

    private static final String HISTORY = """
            SELECT seq, checkpoint_id, parent_id, node_id, next_node_id, created_at,
                   CASE WHEN jsonb_typeof(state) = 'object'
                        THEN ARRAY(SELECT jsonb_object_keys(state) ORDER BY 1) ELSE '{}'::text[] END AS state_keys,
                   octet_length(state::text) AS state_bytes
            FROM graph_checkpoint WHERE thread_id = ? ORDER BY seq DESC
            """;

    private final JdbcTemplate jdbc;

    public CheckpointTable(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** A checkpoint and the thread's newest checkpoint at the time it was read. */
    public record Found(StoredCheckpoint checkpoint, UUID head) {
    }

    public Optional<StoredCheckpoint> latest(UUID thread) {
        return jdbc.query(LATEST, s -> bindThreadTwice(s, thread), CheckpointTable::stored).stream().findFirst();
    }

    public List<StoredCheckpoint> live(UUID thread) {
        return jdbc.query(LIVE, s -> bindThreadTwice(s, thread), CheckpointTable::stored);
    }

    public Optional<Found> byId(UUID thread, UUID checkpointId) {
        return jdbc.query(BY_ID, s -> {
            s.setObject(1, thread);
            s.setObject(2, thread);
            s.setObject(3, checkpointId);
        }, (row, n) -> new Found(stored(row, n), row.getObject("head_id", UUID.class))).stream().findFirst();
    }

    /** The new checkpoint's seq, or empty when the live head was not {@code expectedHead} or the fence did not hold. */
    public Optional<Integer> append(UUID thread, Append append) {
        return append(thread, append, false);
    }

    /**
     * As {@link #append(UUID, Append)}; with {@code rowLocked}, the caller's transaction holds the
     * operation's row locked already (a fenced write of the same lease wrote in it), and the fence
     * only reads it.
     */
    public Optional<Integer> append(UUID thread, Append append, boolean rowLocked) {
        return appending(thread, append, rowLocked).run(jdbc);
    }

    /** {@link #append(UUID, Append, boolean)} as one statement, to be sent with others ({@link SqlStatement}). */
    public SqlStatement<Optional<Integer>> appending(UUID thread, Append append, boolean rowLocked) {
        return new SqlStatement<>(rowLocked ? APPEND_UNDER_HELD_LOCK : APPEND_LOCKING, APPEND_PARAMETERS,
                (statement, first) -> bindAppend(statement, first, thread, append),
                rows -> rows.next() ? Optional.of(rows.getInt("seq")) : Optional.empty());
    }

    /**
     * {@link #append(UUID, Append, boolean)} for a held write ({@link RunWrites.Write#statement}): answers
     * whether the fence held; fails with {@value RunWrites#REFUSAL_STATE} when it held but the live
     * head was not {@code expectedHead}. The append must be fenced (an epoch).
     */
    public SqlStatement<Boolean> appendingHeld(UUID thread, Append append, boolean rowLocked) {
        if (append.epoch() == null) {
            throw new IllegalArgumentException("a held checkpoint is fenced by its run's lease: it needs an epoch");
        }
        return new SqlStatement<>(rowLocked ? HELD_APPEND_UNDER_HELD_LOCK : HELD_APPEND_LOCKING,
                APPEND_PARAMETERS, (statement, first) -> bindAppend(statement, first, thread, append),
                rows -> rows.next() && rows.getBoolean(1));
    }

    /** Whether the operation named by the thread is RUNNING in {@code epoch}: why an append inserted nothing. */
    public boolean fenceHolds(UUID thread, long epoch) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM operation WHERE operation_id = ? "
                + "AND status = 'RUNNING' AND lease_epoch = ?)", Boolean.class, thread, epoch));
    }

    /**
     * What to append.
     *
     * @param parent the checkpoint the new one derives from; null means the live head
     * @param checked whether to insert only while the live head is {@code expectedHead}
     *     (null: the thread has no live checkpoint)
     * @param epoch the lease epoch the operation must be RUNNING in; null for a thread no worker runs
     */
    public record Append(UUID checkpointId, String nodeId, String nextNodeId, String stateJson,
            @Nullable UUID parent, boolean checked, @Nullable UUID expectedHead, @Nullable Long epoch) {
    }

    /** Marks the live checkpoints as a released run and returns them, newest first. */
    public List<StoredCheckpoint> release(UUID thread) {
        return jdbc.query(RELEASE, s -> {
            s.setObject(1, thread);
            s.setObject(2, thread);
            s.setObject(3, thread);
            s.setObject(4, thread);
        }, CheckpointTable::stored);
    }

    /** Appends a copy of {@code from} as the newest checkpoint, its parent {@code from}; empty when there is no such checkpoint. */
    public Optional<UUID> fork(UUID thread, UUID from, UUID forkId) {
        return jdbc.query("""
                INSERT INTO graph_checkpoint (thread_id, seq, checkpoint_id, parent_id, node_id, next_node_id, state)
                SELECT c.thread_id, (SELECT max(h.seq) FROM graph_checkpoint h WHERE h.thread_id = c.thread_id) + 1,
                       ?, c.checkpoint_id, c.node_id, c.next_node_id, c.state
                FROM graph_checkpoint c WHERE c.thread_id = ? AND c.checkpoint_id = ?
                RETURNING checkpoint_id
                """, (row, n) -> row.getObject(1, UUID.class), forkId, thread, from).stream().findFirst();
    }

    public List<CheckpointEntry> history(UUID thread) {
        return jdbc.query(HISTORY, s -> s.setObject(1, thread), (row, n) -> new CheckpointEntry(
                row.getInt("seq"),
                row.getObject("checkpoint_id", UUID.class),
                row.getObject("parent_id", UUID.class),
                row.getString("node_id"),
                row.getString("next_node_id"),
                row.getTimestamp("created_at").toInstant(),
                List.of((String[]) row.getArray("state_keys").getArray()),
                row.getLong("state_bytes")));
    }

    private static void bindThreadTwice(PreparedStatement statement, UUID thread) throws SQLException {
        statement.setObject(1, thread);
        statement.setObject(2, thread);
    }

    /** Binds {@link #APPEND}'s {@value #APPEND_PARAMETERS} parameters, its first at index {@code first}. */
    private static void bindAppend(PreparedStatement statement, int first, UUID thread, Append append)
            throws SQLException {
        statement.setObject(first, thread);
        statement.setObject(first + 1, thread);
        setNullableLong(statement, first + 2, append.epoch());
        statement.setObject(first + 3, thread);
        statement.setObject(first + 4, thread);
        statement.setObject(first + 5, append.checkpointId());
        setNullableUuid(statement, first + 6, append.parent());
        statement.setString(first + 7, append.nodeId());
        statement.setString(first + 8, append.nextNodeId());
        statement.setString(first + 9, append.stateJson());
        statement.setBoolean(first + 10, append.checked());
        setNullableUuid(statement, first + 11, append.expectedHead());
        setNullableLong(statement, first + 12, append.epoch());
    }

    private static void setNullableLong(PreparedStatement statement, int index, @Nullable Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, value);
        }
    }

    private static void setNullableUuid(PreparedStatement statement, int index, @Nullable UUID value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.OTHER);
        } else {
            statement.setObject(index, value);
        }
    }

    private static StoredCheckpoint stored(ResultSet row, int rowNum) throws SQLException {
        return new StoredCheckpoint(
                row.getInt("seq"),
                row.getObject("checkpoint_id", UUID.class),
                row.getObject("parent_id", UUID.class),
                row.getString("node_id"),
                row.getString("next_node_id"),
                row.getString("state"),
                row.getTimestamp("created_at").toInstant());
    }
}

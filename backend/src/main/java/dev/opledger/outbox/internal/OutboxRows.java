package dev.opledger.outbox.internal;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.postgresql.PGStatement;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The relay's reads and writes of outbox_event. */
@Repository
class OutboxRows {

    /**
     * The rows the relay has to look at: unpublished, from the watermark on ({@link
     * #advanceWatermark}) up to the highest id. The watermark is bound as a value, read first,
     * never as a subquery: PostgreSQL plans a subquery's value as unknown and guesses {@code id >=
     * unknown} at a third of the table, which with few unpublished rows in its statistics makes a
     * sequential scan of the whole outbox the cheaper plan; with the value it sees how few ids lie
     * above it. The upper bound, the highest id (one step down the primary key), is for a table
     * without statistics (autovacuum off, or a new database before its first ANALYZE), where a
     * bound alone is guessed at a third of the table but a range between two at 0.5 %. Either
     * way the relay walks the primary key ({@code OutboxRelayPlansIT} checks the plans on a large
     * outbox with and without statistics).
     */
    static final String UNPUBLISHED = unpublishedFrom("?");

    /** {@link #UNPUBLISHED} from {@code watermark}: a bound value, or a value the statement reads itself. */
    private static String unpublishedFrom(String watermark) {
        return "id >= " + watermark + " AND id <= (SELECT max(id) FROM outbox_event) AND published_at IS NULL";
    }

    /**
     * The statement of {@link #renewAndReadUnpublished}: the lease as an interval, the epoch, the
     * stall limit in milliseconds, how many rows at most. The election's row comes back once when
     * renewed (with nulls for the event when none is unpublished), never when another node holds it.
     * The watermark reaches the rows' scan as the renewed row's value, a parameter of the scan
     * between it and the highest id, so the plan walks the primary key as with a bound value
     * ({@code OutboxRelayPlansIT}).
     */
    static final String RENEW_AND_READ = """
            WITH renewed AS (
              UPDATE outbox_relay SET expires_at = now() + ?::interval WHERE name = 'relay' AND epoch = ?
              RETURNING published_below, set_config('idle_in_transaction_session_timeout', ?, true) AS stall_limit
            )
            SELECT r.published_below, e.*
            FROM renewed r LEFT JOIN LATERAL (
              SELECT id, operation_ref, event_id, operation_id, subject_id, sequence, type, status, tool, step_key,
                     occurred_at, payload::text AS payload, trace_context
              FROM outbox_event WHERE %s ORDER BY id LIMIT ?
            ) e ON true
            """.formatted(unpublishedFrom("r.published_below"));

    static final String ANY_UNPUBLISHED = "SELECT EXISTS (SELECT 1 FROM outbox_event WHERE " + UNPUBLISHED + ")";

    static final String BACKLOG = "SELECT count(*) FROM outbox_event WHERE " + UNPUBLISHED;

    static final String LAG = "SELECT coalesce(extract(epoch FROM now() - min(occurred_at)), 0)::float8 FROM outbox_event WHERE "
            + UNPUBLISHED;

    private final JdbcTemplate jdbc;
    // the highest watermark read as committed: a lower bound for good, as the watermark only grows
    private final AtomicLong knownPublishedBelow = new AtomicLong();

    OutboxRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The watermark as committed: every row below it is published, or never committed. */
    long publishedBelow() {
        long below = jdbc.queryForObject("SELECT published_below FROM outbox_relay WHERE name = 'relay'", Long.class);
        knownPublishedBelow.accumulateAndGet(below, Math::max);
        return below;
    }

    /**
     * The start of a batch, in the batch's transaction and in one round trip (issue 13: every
     * round trip before the Kafka transaction is the events' lag, and under load each costs a
     * wait for a core): renews the election of {@code epoch} for {@code lease}, which locks its
     * row (no takeover until this transaction ends, and no other batch), limits how long this
     * transaction may stall to {@code stallLimit}, and reads up to {@code max} unpublished rows
     * from the watermark on, sorted by operation and sequence. Empty when another node took the
     * election over (nothing is read then). Within an operation ids follow sequences (a row is
     * inserted while its operation's row is locked). The rows are not locked: only the elected
     * relay reads them to publish, and its batch holds the election's row lock, so no other batch
     * runs until it ends; a row lock would only cost a WAL record per row. The rows are read in
     * the statement's snapshot, which may be older than the renewed row if the renewal waited for
     * its lock: rows committed meanwhile go in the next batch.
     */
    Optional<List<OutboxEvent>> renewAndReadUnpublished(long epoch, Duration lease, Duration stallLimit, int max) {
        List<Optional<OutboxEvent>> rows = jdbc.query(RENEW_AND_READ, (row, n) -> {
            knownPublishedBelow.accumulateAndGet(row.getLong("published_below"), Math::max);
            return row.getObject("id") == null ? Optional.<OutboxEvent>empty() : Optional.of(event(row));
        }, lease.toMillis() + " milliseconds", epoch, String.valueOf(stallLimit.toMillis()), max);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(rows.stream().flatMap(Optional::stream)
                .sorted(Comparator.comparingLong(OutboxEvent::operationRef).thenComparingInt(OutboxEvent::sequence))
                .toList());
    }

    private static OutboxEvent event(ResultSet row) throws SQLException {
        return new OutboxEvent(row.getLong("id"), row.getLong("operation_ref"), row.getObject("event_id", UUID.class),
                row.getObject("operation_id", UUID.class), row.getString("subject_id"), row.getInt("sequence"),
                row.getString("type"), row.getString("status"), row.getString("tool"), row.getString("step_key"),
                row.getTimestamp("occurred_at").toInstant(), row.getString("payload"), row.getString("trace_context"));
    }

    /**
     * Marks rows published and records the batch in outbox_publication, only for the relay
     * elected in {@code epoch}: a relay that lost the election (another node's epoch is higher)
     * marks nothing. No index uses published_at, so each mark is a HOT update: the row's new
     * version stays on its page and no index entry is written. Returns the rows marked.
     *
     * <p>Planned for each batch, never kept on the connection: no generic plan finds a list of
     * ids by the primary key on a small table, and PostgreSQL keeps a generic plan until the next
     * ANALYZE, so one made while the outbox was new read the whole outbox for every batch on a
     * database that is not analyzed (issue 13, OutboxMarkPlansIT). Once a batch, its planning
     * costs nothing measurable.
     */
    int markPublished(Collection<Long> ids, long epoch) {
        return jdbc.execute((ConnectionCallback<Integer>) connection -> {
            Array array = connection.createArrayOf("bigint", ids.toArray());
            try (var statement = connection.prepareStatement("""
                    WITH marked AS (
                      UPDATE outbox_event SET published_at = now()
                      WHERE id = ANY(?) AND published_at IS NULL
                        AND EXISTS (SELECT 1 FROM outbox_relay WHERE name = 'relay' AND epoch = ?)
                      RETURNING id
                    )
                    INSERT INTO outbox_publication (epoch, events, first_id, last_id)
                    SELECT ?, count(*), min(id), max(id) FROM marked HAVING count(*) > 0
                    RETURNING events
                    """)) {
                statement.unwrap(PGStatement.class).setPrepareThreshold(0);
                statement.setArray(1, array);
                statement.setLong(2, epoch);
                statement.setLong(3, epoch);
                try (var result = statement.executeQuery()) {
                    return result.next() ? result.getInt(1) : 0;
                }
            }
        });
    }

    /** The statement of {@link #advanceWatermark}: the epoch, twice. */
    static final String ADVANCE = """
            WITH relay AS (
              SELECT published_below AS w, horizon_id AS h, horizon_xid AS x,
                     horizon_xid IS NOT NULL AND pg_snapshot_xmin(pg_current_snapshot()) > horizon_xid AS settled
              FROM outbox_relay WHERE name = 'relay' AND epoch = ?
            ), next AS (
              SELECT CASE WHEN settled THEN greatest(w, coalesce(
                         (SELECT min(e.id) FROM outbox_event e WHERE e.id >= w AND e.id <= h AND e.published_at IS NULL),
                         h + 1))
                     ELSE w END AS w,
                     h, x, settled
              FROM relay
            )
            UPDATE outbox_relay r SET
              published_below = n.w,
              horizon_id = CASE WHEN n.h IS NULL OR n.settled
                                THEN greatest(n.w - 1, (SELECT max(id) FROM outbox_event)) ELSE n.h END,
              horizon_xid = CASE WHEN n.h IS NULL OR n.settled THEN NULL
                                 WHEN n.x IS NULL THEN pg_current_xact_id() ELSE n.x END
            FROM next n WHERE r.name = 'relay' AND r.epoch = ?
            """;

    /**
     * Moves the watermark on, in the elected relay's batch transaction (after its marks), under
     * {@code epoch}. The watermark {@code published_below} may pass an id only when no row at or
     * below it can still commit unpublished. Ids come from a sequence, so a row with a low id can
     * commit after rows with higher ids were published: the watermark never passes the highest
     * id an earlier batch saw (the horizon) before every transaction that could have taken a
     * lower id has ended. Every statement that writes an event takes a transaction id before it
     * takes the row's id (it writes the operation's row first, {@code OutboxRow}), and a row
     * visible to a snapshot had its id before that snapshot, so every writer of a row up to the
     * horizon had its transaction id before the batch that read the horizon ended. The next
     * batch's own transaction id is newer than all of them: once no transaction older than it is
     * running ({@code pg_snapshot_xmin}), the rows up to the horizon are all committed or never
     * will be, and the watermark moves to the lowest of them still unpublished (or past the
     * horizon), and a new horizon is read. Three batches a step: read the horizon, take the
     * transaction id, settle. A transaction that takes an id and stays open holds the watermark
     * back (never past its row) until it ends; meanwhile the relay reads from the old watermark.
     */
    void advanceWatermark(long epoch) {
        jdbc.update(ADVANCE, epoch, epoch);
    }

    /** The statement of {@link #purge}: the retention as an interval, how many batches at most, the retention again. */
    static final String PURGE = """
            WITH due AS (
              DELETE FROM outbox_publication WHERE id IN (
                SELECT id FROM outbox_publication WHERE published_at < now() - ?::interval ORDER BY published_at LIMIT ?)
              RETURNING first_id, last_id
            ), purged AS (  -- run to completion though nothing reads it, as every writing WITH is
              -- between two bounds, for the planner (a range, so the primary key even without statistics)
              DELETE FROM outbox_event
              WHERE id >= (SELECT min(first_id) FROM due) AND id <= (SELECT max(last_id) FROM due)
                AND published_at < now() - ?::interval
              RETURNING id
            )
            SELECT count(*)::int FROM due
            """;

    /**
     * Deletes the rows of up to {@code max} batches published more than {@code retention} ago, and
     * those batches' records; returns how many batches. A batch's rows lie between its first and
     * last id; a row between them published later is kept by its own publication time, and one
     * published as long ago goes now, with its batch's record left for a later purge.
     */
    int purge(Duration retention, int max) {
        String age = retention.toMillis() + " milliseconds";
        Integer purged = jdbc.queryForObject(PURGE, Integer.class, age, max, age);
        return purged == null ? 0 : purged;
    }

    /**
     * Whether any row is unpublished: the idle relay's poll, read-only, from the highest watermark
     * this node has read (none read yet: the committed one).
     */
    boolean anyUnpublished() {
        long from = knownPublishedBelow.get();
        return Boolean.TRUE.equals(jdbc.queryForObject(ANY_UNPUBLISHED, Boolean.class, from > 0 ? from : publishedBelow()));
    }

    long backlog() {
        Long count = jdbc.queryForObject(BACKLOG, Long.class, publishedBelow());
        return count == null ? 0 : count;
    }

    /** Seconds since the oldest unpublished event occurred; 0 with none. */
    double lagSeconds() {
        Double lag = jdbc.queryForObject(LAG, Double.class, publishedBelow());
        return lag == null ? 0 : lag;
    }
}

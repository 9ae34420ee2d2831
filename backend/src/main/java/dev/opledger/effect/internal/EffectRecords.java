package dev.opledger.effect.internal;

import static dev.opledger.operation.SqlStatement.text;

import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectStatus;
import dev.opledger.effect.RecordedEffect;
import dev.opledger.effect.RunWrites;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SqlStatement;
import dev.opledger.outbox.EventType;
import dev.opledger.outbox.OutboxRow;
import dev.opledger.outbox.OutboxTrace;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The effect_record table; every write is one statement in autocommit, so it is durable when the
 * call returns, and writes the record's event in the same statement. A first call's STARTED also
 * looks the record up ({@link #startFirst}), so a step's first call costs no read of its own.
 */
@Repository
public class EffectRecords {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    /**
     * Starts every write: the operation's row, only while it is RUNNING in the effect's lease epoch
     * (operationId, epoch: the first two parameters), locked until the write commits so a takeover
     * waits for it or the write sees the takeover. No row: the write changes nothing.
     *
     * <p>A write names the fenced row's id as a value, {@code (SELECT id FROM fence)}, never by a
     * join: with the key whole, the primary key is the only sensible plan at any size, while a
     * join planned while the ledger was new (PostgreSQL keeps a prepared statement's generic plan
     * until the next ANALYZE) read every record on every write (issue 13, EffectRecordsPlansIT).
     */
    private static final String FENCE = """
            WITH fence AS (
              SELECT id FROM operation WHERE operation_id = ? AND status = 'RUNNING' AND lease_epoch = ?
              FOR NO KEY UPDATE
            )
            """;

    /**
     * As {@link #FENCE}, for a STARTED write: refused also while a cancel is pending on the
     * operation, so no effect starts after a cancel was requested. The cancel request locks the
     * same row: it commits before this write, which then sees it, or waits for the write, and the
     * call goes ahead in flight.
     */
    private static final String FENCE_TO_START = """
            WITH fence AS (
              SELECT id FROM operation WHERE operation_id = ? AND status = 'RUNNING' AND lease_epoch = ?
                AND cancel_pending_since IS NULL
              FOR NO KEY UPDATE
            )
            """;

    /**
     * As {@link #FENCE_TO_START}, in a transaction whose earlier fenced write of the same lease
     * locked the operation's row (FOR NO KEY UPDATE, until the commit): a plain read of the row,
     * which a cancel request cannot change meanwhile. Locking again a row the transaction locked
     * writes one more WAL record (issue 13).
     */
    private static final String FENCE_TO_START_UNDER_HELD_LOCK = FENCE_TO_START.replace("FOR NO KEY UPDATE", "");

    /**
     * Follows a {@code changed} CTE (the effect record as written, none when the write changed
     * nothing): numbers the event on the operation's row and writes it; the type and the trace
     * context ({@link OutboxTrace#current()}) are the last two parameters. The statement answers whether the
     * fence held.
     */
    private static final String EVENT_WRITES = """
            , counted AS (
              UPDATE operation o SET event_sequence = o.event_sequence + 1 FROM changed c WHERE o.id = c.operation_ref
              RETURNING o.id, o.operation_id, o.subject_id, o.event_sequence
            ), event AS (
              %s
              SELECT o.id, o.operation_id, o.subject_id, o.event_sequence, ?, c.status, c.tool, c.step_key,
                     jsonb_build_object('server', c.server, 'attempt', c.calls), trace.context
              FROM counted o JOIN changed c ON c.operation_ref = o.id %s
            )
            """.formatted(OutboxRow.INSERT, OutboxRow.TRACE);

    private static final String EVENT = EVENT_WRITES + """
            SELECT EXISTS (SELECT 1 FROM fence)
            """;

    /** The columns of a step's record ({@link #record}), from {@code effect_record e}. */
    private static final String RECORD_COLUMNS = """
            e.status, e.repeat_class, e.result::text, e.error, e.calls, e.argument_digest, e.arguments::text,
            e.task_id, e.task_status, e.task_poll_interval_ms, e.resolution,
            (SELECT g.acknowledged_by FROM effect_replay_guard g WHERE g.operation_ref = e.operation_ref
              AND g.step_key = e.step_key AND g.passed_at IS NULL) AS guard_ack,
            EXISTS (SELECT 1 FROM effect_replay_guard g WHERE g.operation_ref = e.operation_ref
              AND g.step_key = e.step_key AND g.passed_at IS NULL) AS guarded
            """;

    /**
     * After its fence, {@link #START_FIRST}: STARTED for a step with no record yet, with the
     * look-up of the record folded in: inserts only where there is none (fenced as
     * {@link #FENCE_TO_START}), and answers whether it did and the record that was there before
     * the statement, if any. The record is looked up by its
     * whole key, the operation's id found first: the statement is prepared once per connection
     * and its generic plan kept, and a join planned while the tables were new (no statistics yet)
     * read every record of the step, for every call, until the next ANALYZE (issue 13).
     */
    private static final String START_FIRST_AFTER_FENCE = """
            , prior AS (
              SELECT %s FROM effect_record e
              WHERE e.operation_ref = (SELECT o.id FROM operation o WHERE o.operation_id = ?) AND e.step_key = ?
            ), changed AS (
              INSERT INTO effect_record (operation_ref, step_key, server, tool, repeat_class, status, idempotency_key,
                                         arguments, argument_digest, calls, started_at)
              SELECT fence.id, ?, ?, ?, ?, 'STARTED', ?, ?::jsonb, ?, 1, clock_timestamp() FROM fence
              ON CONFLICT (operation_ref, step_key) DO NOTHING
              RETURNING operation_ref, step_key, server, tool, status, calls
            )
            """.formatted(RECORD_COLUMNS) + EVENT_WRITES + """
            SELECT EXISTS (SELECT 1 FROM changed) AS started, p.* FROM (SELECT 1) AS one LEFT JOIN prior p ON true
            """;

    private static final String START_FIRST = FENCE_TO_START + START_FIRST_AFTER_FENCE;

    private static final String START_FIRST_UNDER_HELD_LOCK = FENCE_TO_START_UNDER_HELD_LOCK + START_FIRST_AFTER_FENCE;

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final OutboxTrace trace;

    EffectRecords(JdbcTemplate jdbc, JsonMapper json, OutboxTrace trace) {
        this.jdbc = jdbc;
        this.json = json;
        this.trace = trace;
    }

    public Optional<EffectRecord> find(OperationId operationId, String stepKey) {
        return jdbc.query("SELECT " + RECORD_COLUMNS + " FROM effect_record e "
                        + "JOIN operation o ON o.id = e.operation_ref WHERE o.operation_id = ? AND e.step_key = ?",
                (row, n) -> record(row, 0), operationId.value(), stepKey).stream().findFirst();
    }

    /**
     * What {@link #startFirst} did: STARTED written (the step had no record, the fence held), or
     * not, with the record found in its place. Neither (not started, no record seen): the fence
     * refused it, or a record was committed concurrently; {@link #find} tells.
     */
    public record FirstStart(boolean started, Optional<EffectRecord> recorded) {
    }

    /**
     * The first call's STARTED and the look-up of the step's record in one statement: when the
     * step has no record, STARTED is written (with its event) as {@link #start} would for a first
     * call; otherwise nothing is written and the record is answered, for the caller to decide as
     * after {@link #find}.
     */
    public FirstStart startFirst(Effect effect, RepeatClass repeatClass, @Nullable String idempotencyKey,
            Map<String, Object> arguments, String argumentDigest) {
        return startingFirst(effect, repeatClass, idempotencyKey, arguments, argumentDigest, false).run(jdbc);
    }

    /**
     * {@link #startFirst} as one statement, to be sent with the writes a worker's run held
     * ({@link SqlStatement}); with {@code rowLocked}, a held write before it in the same
     * transaction locks the operation's row already, and its fence only reads the row.
     */
    public SqlStatement<FirstStart> startingFirst(Effect effect, RepeatClass repeatClass,
            @Nullable String idempotencyKey, Map<String, Object> arguments, String argumentDigest, boolean rowLocked) {
        return SqlStatement.of(rowLocked ? START_FIRST_UNDER_HELD_LOCK : START_FIRST, rows -> {
                    if (!rows.next()) {
                        throw new IllegalStateException("a first STARTED answered no row");
                    }
                    return new FirstStart(rows.getBoolean(1),
                            rows.getString(2) == null ? Optional.empty() : Optional.of(record(rows, 1)));
                },
                effect.fence().operationId().value(), effect.fence().epoch(), effect.operationId().value(),
                effect.stepKey(), effect.stepKey(), effect.tool().server(), effect.tool().tool(), repeatClass.name(),
                text(idempotencyKey), json.writeValueAsString(arguments), argumentDigest,
                EventType.AgentToolStarted.name(), text(trace.current()));
    }

    /** A statement of this table's ({@link #startingFirst}) run on its own, in autocommit. */
    public <T> T alone(SqlStatement<T> statement) {
        return statement.run(jdbc);
    }

    private EffectRecord record(java.sql.ResultSet row, int offset) throws java.sql.SQLException {
        return new EffectRecord(row.getString(offset + 1), RepeatClass.valueOf(row.getString(offset + 2)),
                map(row.getString(offset + 3)), row.getString(offset + 4), row.getInt(offset + 5),
                digest(row.getString(offset + 6), row.getString(offset + 7)), row.getString(offset + 8),
                row.getString(offset + 9), row.getObject(offset + 10, Long.class), row.getString(offset + 11),
                !row.getBoolean(offset + 13) ? null : new EffectRecord.ReplayGuard(row.getString(offset + 12)));
    }

    /**
     * The digest of an effect's arguments ({@link ArgumentDigest}); empty when they have no RFC 8785
     * form. (Not an exception: this repository's exceptions are translated into data access ones.)
     */
    public Optional<String> argumentDigest(Map<String, Object> arguments) {
        try {
            return Optional.of(ArgumentDigest.of(json, arguments));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The stored digest; for a row written before digests were, the digest of its stored arguments. */
    private @Nullable String digest(@Nullable String stored, String arguments) {
        if (stored != null) {
            return stored;
        }
        try {
            return ArgumentDigest.of(json, json.readValue(arguments, MAP));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The operation's records whose first call started after {@code after} (a checkpoint's time),
     * in that order. A run's first checkpoint commits in the transaction of its first STARTED,
     * written after it: both times are the clock's at the statement ({@code clock_timestamp()},
     * as a checkpoint's), not the transaction's start, so the record is after its checkpoint.
     */
    public List<dev.opledger.effect.RecordedCall> recordedAfter(OperationId operationId, Instant after) {
        return jdbc.query("""
                SELECT e.step_key, e.server, e.tool, e.repeat_class, e.status, e.argument_digest, e.arguments::text,
                       e.calls, e.resolution, e.started_at
                FROM effect_record e JOIN operation o ON o.id = e.operation_ref
                WHERE o.operation_id = ? AND e.started_at >= ?
                ORDER BY e.started_at, e.step_key
                """, (row, n) -> new dev.opledger.effect.RecordedCall(row.getString(1), row.getString(2),
                        row.getString(3), RepeatClass.valueOf(row.getString(4)), EffectStatus.valueOf(row.getString(5)),
                        digest(row.getString(6), row.getString(7)), row.getInt(8), row.getString(9),
                        row.getTimestamp(10).toInstant()),
                operationId.value(), after.atOffset(java.time.ZoneOffset.UTC));
    }

    /** A replay's guard of a step its dry run found BLOCKED (joins the caller's transaction). */
    public void guard(OperationId operationId, long replayId, String stepKey, String tool, @Nullable String acknowledgedBy) {
        jdbc.update("""
                INSERT INTO effect_replay_guard (replay_ref, operation_ref, step_key, tool, acknowledged_by)
                SELECT ?, o.id, ?, ?, ? FROM operation o WHERE o.operation_id = ?
                """, replayId, stepKey, tool, acknowledgedBy, operationId.value());
    }

    /** Passes the operation's guards not reached yet. */
    public void passGuards(OperationId operationId) {
        jdbc.update("""
                UPDATE effect_replay_guard g SET passed_at = now() FROM operation o
                WHERE o.id = g.operation_ref AND o.operation_id = ? AND g.passed_at IS NULL
                """, operationId.value());
    }

    /**
     * The replay's run reached a guarded step no one acknowledged: the guard is passed (fenced), so
     * after a person's review the step follows its record as any run would. False when the lease is lost.
     */
    public boolean passGuard(Effect effect) {
        return fenced(FENCE + """
                , changed AS (
                  UPDATE effect_replay_guard g SET passed_at = now()
                  WHERE g.operation_ref = (SELECT id FROM fence) AND g.step_key = ? AND g.passed_at IS NULL
                  RETURNING 1
                )
                SELECT EXISTS (SELECT 1 FROM fence)
                """, effect, effect.stepKey());
    }

    /** The operation's records in the order their steps first started, long texts cut to {@code maxText}. */
    public List<RecordedEffect> recorded(OperationId operationId, int maxText) {
        // one character more than is shown, to tell a cut text from one that fits exactly
        return jdbc.query("""
                SELECT e.step_key, e.server, e.tool, e.repeat_class, e.status, e.idempotency_key, e.calls, e.started_at,
                       e.finished_at, left(e.result::text, ?) AS result, left(e.error, ?) AS error
                FROM effect_record e JOIN operation o ON o.id = e.operation_ref WHERE o.operation_id = ?
                ORDER BY e.started_at, e.step_key
                """, (row, n) -> new RecordedEffect(row.getString("step_key"), row.getString("server"),
                        row.getString("tool"), RepeatClass.valueOf(row.getString("repeat_class")),
                        EffectStatus.valueOf(row.getString("status")), row.getString("idempotency_key"),
                        row.getInt("calls"), row.getTimestamp("started_at").toInstant(),
                        instant(row.getTimestamp("finished_at")), cut(row.getString("result"), maxText),
                        cut(row.getString("error"), maxText)),
                maxText + 1, maxText + 1, operationId.value());
    }

    /** STARTED for a first call, or a repeat with the same arguments: {@link #start(Effect, RepeatClass, String, Map, String, boolean)}. */
    public boolean start(Effect effect, RepeatClass repeatClass, @Nullable String idempotencyKey,
            Map<String, Object> arguments) {
        return start(effect, repeatClass, idempotencyKey, arguments, ArgumentDigest.of(json, effect.arguments()), false);
    }

    /**
     * STARTED, committed before the call: a crash from here on leaves "outcome unknown" behind.
     * With its event ({@code AgentToolStarted}, one per call attempt), unless the step succeeded
     * already. False, and nothing written, when the effect's lease is no longer the operation's:
     * the caller must not call the tool ({@link #cancelPending} tells whether a cancel refused it).
     *
     * @param argumentDigest the digest of the effect's arguments ({@link ArgumentDigest})
     * @param supersedes the step's record was made with other arguments and this call replaces
     *     it (the class allows it): the old record is copied, as it was, into
     *     {@code effect_record_superseded} in the same statement, and the new one counts its calls
     *     from 1; it may replace a SUCCEEDED record
     */
    public boolean start(Effect effect, RepeatClass repeatClass, @Nullable String idempotencyKey,
            Map<String, Object> arguments, String argumentDigest, boolean supersedes) {
        return start(effect, repeatClass, idempotencyKey, arguments, argumentDigest, supersedes, false);
    }

    /**
     * As {@link #start(Effect, RepeatClass, String, Map, String, boolean)}; with {@code
     * passesGuard}, the call a person acknowledged for a replay: the step's replay guard is passed
     * in the same statement, so a crash after it leaves an ordinary STARTED record (outcome
     * unknown) and the acknowledgement is never used for a second call.
     */
    public boolean start(Effect effect, RepeatClass repeatClass, @Nullable String idempotencyKey,
            Map<String, Object> arguments, String argumentDigest, boolean supersedes, boolean passesGuard) {
        return fenced(FENCE_TO_START + """
                , guard AS (
                  UPDATE effect_replay_guard g SET passed_at = now()
                  WHERE ? AND g.operation_ref = (SELECT id FROM fence) AND g.step_key = ? AND g.passed_at IS NULL
                ), superseded AS (
                  INSERT INTO effect_record_superseded (operation_ref, step_key, superseded_by, server, tool, repeat_class,
                      status, idempotency_key, arguments, argument_digest, result, error, calls, started_at, finished_at,
                      task_id)
                  SELECT e.operation_ref, e.step_key, ?, e.server, e.tool, e.repeat_class, e.status, e.idempotency_key,
                         e.arguments, e.argument_digest, e.result, e.error, e.calls, e.started_at, e.finished_at, e.task_id
                  FROM effect_record e
                  WHERE ? AND e.operation_ref = (SELECT id FROM fence) AND e.step_key = ?
                ), changed AS (
                  INSERT INTO effect_record (operation_ref, step_key, server, tool, repeat_class, status, idempotency_key,
                                             arguments, argument_digest, calls, started_at)
                  SELECT fence.id, ?, ?, ?, ?, 'STARTED', ?, ?::jsonb, ?, 1, clock_timestamp() FROM fence
                  ON CONFLICT (operation_ref, step_key) DO UPDATE SET status = 'STARTED', repeat_class = excluded.repeat_class,
                      idempotency_key = excluded.idempotency_key, arguments = excluded.arguments,
                      argument_digest = excluded.argument_digest, error = NULL, finished_at = NULL,
                      task_id = NULL, task_status = NULL, task_status_message = NULL, task_poll_interval_ms = NULL,
                      task_polled_at = NULL, task_polls = 0, task_cancel_sent_at = NULL, resolution = NULL,
                      result = CASE WHEN ? THEN NULL ELSE effect_record.result END,
                      calls = CASE WHEN ? THEN 1 ELSE effect_record.calls + 1 END,
                      started_at = CASE WHEN ? THEN clock_timestamp() ELSE effect_record.started_at END
                  WHERE effect_record.status <> 'SUCCEEDED' OR ?
                  RETURNING operation_ref, step_key, server, tool, status, calls
                )
                """ + EVENT, effect, passesGuard, effect.stepKey(), argumentDigest, supersedes, effect.stepKey(),
                effect.stepKey(), effect.tool().server(), effect.tool().tool(), repeatClass.name(), text(idempotencyKey),
                json.writeValueAsString(arguments), argumentDigest, supersedes, supersedes, supersedes, supersedes,
                EventType.AgentToolStarted.name(), text(trace.current()));
    }

    /** A downstream task a step's call is waiting for: the step's record is STARTED with a handle. */
    public record StoredTask(ToolRef tool, String taskId) {
    }

    /** The downstream task in flight for the step, if its record holds one. */
    public Optional<StoredTask> taskOf(OperationId operationId, String stepKey) {
        return jdbc.query("SELECT e.server, e.tool, e.task_id FROM effect_record e "
                        + "JOIN operation o ON o.id = e.operation_ref WHERE o.operation_id = ? AND e.step_key = ? "
                        + "AND e.status = 'STARTED' AND e.task_id IS NOT NULL",
                (row, n) -> new StoredTask(new ToolRef(row.getString(1), row.getString(2)), row.getString(3)),
                operationId.value(), stepKey).stream().findFirst();
    }

    /**
     * The downstream task the call was answered with, committed (fenced) before it is polled, so
     * a run that resumes the step polls it instead of calling again. Only on a STARTED record;
     * false, and nothing written, when the effect's lease is no longer the operation's.
     */
    public boolean storeTask(Effect effect, String taskId, String status, @Nullable String message,
            @Nullable Duration pollInterval) {
        return fenced(FENCE + """
                , changed AS (
                  UPDATE effect_record e SET task_id = ?, task_status = ?, task_status_message = ?,
                      task_poll_interval_ms = ?, task_polled_at = NULL, task_polls = 0
                  WHERE e.operation_ref = (SELECT id FROM fence) AND e.step_key = ? AND e.status = 'STARTED'
                  RETURNING 1
                )
                SELECT EXISTS (SELECT 1 FROM fence)
                """, effect, taskId, status, text(message),
                new SqlParameterValue(Types.BIGINT, millis(pollInterval)), effect.stepKey());
    }

    /** What a fenced record of a poll found besides the poll: the lease, and a cancel to pass on. */
    public enum PollRecorded {
        /** The effect's lease is no longer the operation's: nothing was written. */
        LEASE_LOST,
        /** Recorded; no cancel to pass on. */
        RECORDED,
        /** Recorded, and the operation's cancel is pending while no {@code tasks/cancel} was sent for the task. */
        CANCEL_PENDING
    }

    /**
     * What a poll of the downstream task found (still not terminal). The operation's row the
     * fence reads anyway tells whether its cancel is pending, so noticing one costs no query of
     * its own on a poll.
     */
    public PollRecorded taskPolled(Effect effect, String status, @Nullable String message,
            @Nullable Duration pollInterval) {
        return jdbc.queryForObject("""
                WITH fence AS (
                  SELECT id, cancel_pending_since FROM operation WHERE operation_id = ? AND status = 'RUNNING'
                    AND lease_epoch = ?
                  FOR NO KEY UPDATE
                ), changed AS (
                  UPDATE effect_record e SET task_status = ?, task_status_message = ?,
                      task_poll_interval_ms = coalesce(?, e.task_poll_interval_ms), task_polled_at = now(),
                      task_polls = e.task_polls + 1
                  WHERE e.operation_ref = (SELECT id FROM fence) AND e.step_key = ? AND e.status = 'STARTED'
                  RETURNING (SELECT cancel_pending_since FROM fence) IS NOT NULL AND e.task_cancel_sent_at IS NULL
                    AS to_cancel
                )
                SELECT EXISTS (SELECT 1 FROM fence), coalesce((SELECT bool_or(to_cancel) FROM changed), false)
                """, (row, n) -> !row.getBoolean(1) ? PollRecorded.LEASE_LOST
                        : row.getBoolean(2) ? PollRecorded.CANCEL_PENDING : PollRecorded.RECORDED,
                effect.fence().operationId().value(), effect.fence().epoch(), status, message, millis(pollInterval),
                effect.stepKey());
    }

    /**
     * Takes on sending {@code tasks/cancel} for the step's downstream task: records when, fenced,
     * on a STARTED record with a handle and only if none was sent for it. True for exactly one
     * caller per handle (the update rechecks the row it waited for), who then sends it.
     */
    public boolean downstreamCancelSending(Effect effect) {
        return Boolean.TRUE.equals(jdbc.queryForObject(FENCE + """
                , changed AS (
                  UPDATE effect_record e SET task_cancel_sent_at = now()
                  WHERE e.operation_ref = (SELECT id FROM fence) AND e.step_key = ? AND e.status = 'STARTED'
                    AND e.task_id IS NOT NULL AND e.task_cancel_sent_at IS NULL
                  RETURNING 1
                )
                SELECT EXISTS (SELECT 1 FROM changed)
                """, Boolean.class, effect.fence().operationId().value(), effect.fence().epoch(), effect.stepKey()));
    }

    /** When {@code tasks/cancel} was sent for the step's downstream task; empty when it was not. */
    public Optional<Instant> downstreamCancelSent(OperationId operationId, String stepKey) {
        return jdbc.query("SELECT e.task_cancel_sent_at FROM effect_record e JOIN operation o ON o.id = e.operation_ref"
                        + " WHERE o.operation_id = ? AND e.step_key = ? AND e.task_cancel_sent_at IS NOT NULL",
                (row, n) -> row.getTimestamp(1).toInstant(), operationId.value(), stepKey).stream().findFirst();
    }

    private static @Nullable Long millis(@Nullable Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    /** SUCCEEDED with the result, and its event ({@code AgentToolCompleted}); false when the lease is lost. */
    public boolean succeed(Effect effect, Map<String, Object> result) {
        return succeeding(effect, result).run(jdbc);
    }

    /** {@link #succeed} as one statement, to be sent with others ({@link SqlStatement}). */
    public SqlStatement<Boolean> succeeding(Effect effect, Map<String, Object> result) {
        return fencedStatement(FENCE + """
                , changed AS (
                  UPDATE effect_record e SET status = 'SUCCEEDED', result = ?::jsonb, error = NULL, finished_at = now()
                  WHERE e.operation_ref = (SELECT id FROM fence) AND e.step_key = ?
                  RETURNING e.operation_ref, e.step_key, e.server, e.tool, e.status, e.calls
                )
                """ + EVENT, effect, json.writeValueAsString(result), effect.stepKey(),
                EventType.AgentToolCompleted.name(), text(trace.current()));
    }

    /**
     * FAILED with the tool's error, and its event ({@code AgentToolFailed}), unless the step
     * succeeded already; false when the lease is lost.
     */
    public boolean fail(Effect effect, String error) {
        return fenced(FENCE + """
                , changed AS (
                  UPDATE effect_record e SET status = 'FAILED', error = ?, finished_at = now()
                  WHERE e.operation_ref = (SELECT id FROM fence) AND e.step_key = ? AND e.status <> 'SUCCEEDED'
                  RETURNING e.operation_ref, e.step_key, e.server, e.tool, e.status, e.calls
                )
                """ + EVENT, effect, text(error), effect.stepKey(), EventType.AgentToolFailed.name(),
                text(trace.current()));
    }

    /**
     * Whether the operation is RUNNING in the fence's epoch with a cancel pending: why a STARTED
     * write was refused, asked only then.
     */
    public boolean cancelPending(Fence fence) {
        return Boolean.TRUE.equals(jdbc.queryForObject("SELECT EXISTS (SELECT 1 FROM operation WHERE operation_id = ? "
                + "AND status = 'RUNNING' AND lease_epoch = ? AND cancel_pending_since IS NOT NULL)", Boolean.class,
                fence.operationId().value(), fence.epoch()));
    }

    private boolean fenced(String sql, Effect effect, @Nullable Object... parameters) {
        return fencedStatement(sql, effect, parameters).run(jdbc);
    }

    /** A fenced write's statement: the fence's two parameters first; answers whether the fence held. */
    private static SqlStatement<Boolean> fencedStatement(String sql, Effect effect, @Nullable Object... parameters) {
        Object[] all = new Object[parameters.length + 2];
        all[0] = effect.fence().operationId().value();
        all[1] = effect.fence().epoch();
        System.arraycopy(parameters, 0, all, 2, parameters.length);
        return SqlStatement.of(sql, rows -> rows.next() && rows.getBoolean(1), all);
    }

    private static @Nullable String cut(@Nullable String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max) + "…";
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    private @Nullable Map<String, Object> map(@Nullable String text) {
        return text == null ? null : json.readValue(text, MAP);
    }
}

package dev.opledger.effect.internal;

import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.EffectReview;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The effect_review table and the record changes a resolution makes, each resolution one
 * statement: it finds the unknown call only while the operation is NEEDS_REVIEW and no worker
 * holds it, locks the operation's row (as every effect write does, through its fence), records
 * the resolution and changes the record. A second resolution of the same call waits for the
 * lock, then finds the operation no longer in review and changes nothing.
 */
@Repository
public class ReviewRecords {

    /** The unknown call the person named, and the resolution row; parameters: subject, operationId, stepKey, startedAt, resolution, actor, note. */
    private static final String TARGET = """
            WITH target AS (
              SELECT e.operation_ref, e.step_key, e.tool, e.started_at FROM effect_record e
              JOIN operation o ON o.id = e.operation_ref
              WHERE o.subject_id = ? AND o.operation_id = ? AND o.status = 'NEEDS_REVIEW' AND o.lease_owner IS NULL
                AND e.step_key = ? AND e.status = 'STARTED' AND e.started_at = ?
              FOR NO KEY UPDATE OF o
            ), review AS (
              INSERT INTO effect_review (operation_ref, step_key, call_started_at, tool, resolution, actor, note)
              SELECT operation_ref, step_key, started_at, tool, ?, ?, ? FROM target
              RETURNING decided_at
            )
            """;

    private static final String RESOLVED = """
            SELECT decided_at FROM review
            """;

    // the record, SUCCEEDED with the person's word for a result: a resumed run is served from it
    private static final String LANDED = TARGET + """
            , changed AS (
              UPDATE effect_record e SET status = 'SUCCEEDED', resolution = 'LANDED', finished_at = now(), error = NULL,
                     result = jsonb_build_object('confirmedBy', ?::text, 'note', ?::text)
              FROM target t WHERE e.operation_ref = t.operation_ref AND e.step_key = t.step_key
            )
            """ + RESOLVED;

    // FAILED, and marked so the gateway ends the step with the reason instead of calling after a refusal
    private static final String GIVEN_UP = TARGET + """
            , changed AS (
              UPDATE effect_record e SET status = 'FAILED', resolution = 'GIVEN_UP', finished_at = now(), error = ?
              FROM target t WHERE e.operation_ref = t.operation_ref AND e.step_key = t.step_key
            )
            """ + RESOLVED;

    // the record, as it was, to effect_record_superseded (superseded by a call with the same
    // arguments): the step has no record, so the resumed run calls once under a new STARTED one
    private static final String NOT_LANDED = TARGET + """
            , superseded AS (
              INSERT INTO effect_record_superseded (operation_ref, step_key, superseded_by, server, tool, repeat_class,
                  status, idempotency_key, arguments, argument_digest, result, error, calls, started_at, finished_at,
                  task_id)
              SELECT e.operation_ref, e.step_key, coalesce(e.argument_digest, 'unknown'), e.server, e.tool, e.repeat_class,
                     e.status, e.idempotency_key, e.arguments, e.argument_digest, e.result, e.error, e.calls,
                     e.started_at, e.finished_at, e.task_id
              FROM effect_record e JOIN target t ON e.operation_ref = t.operation_ref AND e.step_key = t.step_key
            ), changed AS (
              DELETE FROM effect_record e USING target t WHERE e.operation_ref = t.operation_ref AND e.step_key = t.step_key
            )
            """ + RESOLVED;

    private final JdbcTemplate jdbc;

    ReviewRecords(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The operation's call with an unknown outcome, while it is NEEDS_REVIEW; the latest, should there be more. */
    public Optional<UnknownEffect> unknown(SubjectId subject, OperationId operationId) {
        return jdbc.query("""
                SELECT e.step_key, e.server, e.tool, e.repeat_class, e.argument_digest, e.calls, e.started_at
                FROM effect_record e JOIN operation o ON o.id = e.operation_ref
                WHERE o.subject_id = ? AND o.operation_id = ? AND o.status = 'NEEDS_REVIEW' AND e.status = 'STARTED'
                ORDER BY e.started_at DESC, e.step_key LIMIT 1
                """, (row, n) -> new UnknownEffect(row.getString(1), row.getString(2), row.getString(3),
                        RepeatClass.valueOf(row.getString(4)), row.getString(5), row.getInt(6),
                        row.getTimestamp(7).toInstant()),
                subject.value(), operationId.value()).stream().findFirst();
    }

    /** Records the resolution and changes the record; false, and nothing written, when that call is not unknown in review (any more). */
    public boolean resolve(SubjectId subject, OperationId operationId, String stepKey, Instant startedAt,
            EffectResolution resolution, String actor, String note) {
        Object[] target = {subject.value(), operationId.value(), stepKey, at(startedAt), resolution.name(),
                actor, note};
        Object[] change = switch (resolution) {
            case LANDED -> new Object[] {actor, note};
            case GIVEN_UP -> new Object[] {"given up by " + actor + ": " + note};
            case NOT_LANDED -> new Object[0];
        };
        String sql = switch (resolution) {
            case LANDED -> LANDED;
            case GIVEN_UP -> GIVEN_UP;
            case NOT_LANDED -> NOT_LANDED;
        };
        Object[] all = new Object[target.length + change.length];
        System.arraycopy(target, 0, all, 0, target.length);
        System.arraycopy(change, 0, all, target.length, change.length);
        return !jdbc.queryForList(sql, Timestamp.class, all).isEmpty();
    }

    // an OffsetDateTime binds as timestamptz whatever the JVM's time zone; the microseconds read are kept
    private static OffsetDateTime at(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /** The resolution of one unknown call, once made. */
    public Optional<EffectReview> review(OperationId operationId, String stepKey, Instant startedAt) {
        return jdbc.query("""
                SELECT r.tool, r.resolution, r.actor, r.note, r.decided_at FROM effect_review r
                JOIN operation o ON o.id = r.operation_ref
                WHERE o.operation_id = ? AND r.step_key = ? AND r.call_started_at = ?
                """, (row, n) -> new EffectReview(operationId, stepKey, row.getString(1), startedAt,
                        EffectResolution.valueOf(row.getString(2)), row.getString(3), row.getString(4),
                        row.getTimestamp(5).toInstant()),
                operationId.value(), stepKey, at(startedAt)).stream().findFirst();
    }
}

package dev.opledger.replay.internal;

import dev.opledger.operation.OperationId;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The operation_replay table: every replay started, each row in the start's transaction. */
@Repository
public class ReplayRecords {

    /** A replay not come to rest: the operation has not reached a rest status since it started. */
    public record Active(String actor, Instant startedAt) {
    }

    private final JdbcTemplate jdbc;

    ReplayRecords(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public long insert(OperationId operationId, UUID fromCheckpoint, UUID forkCheckpoint, String planDigest,
            String fromStatus, String actor, String planJson, @Nullable String undoneApprovalJson) {
        Long id = jdbc.queryForObject("""
                INSERT INTO operation_replay (operation_ref, from_checkpoint, fork_checkpoint, plan_digest, from_status,
                                              actor, plan, undone_approval)
                SELECT o.id, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb FROM operation o WHERE o.operation_id = ?
                RETURNING id
                """, Long.class, fromCheckpoint, forkCheckpoint, planDigest, fromStatus, actor, planJson,
                undoneApprovalJson, operationId.value());
        if (id == null) {
            throw new IllegalStateException("no operation " + operationId + " for its replay");
        }
        return id;
    }

    /** The operation's latest replay while the operation has not come to rest since it started. */
    public Optional<Active> active(OperationId operationId) {
        return jdbc.query("""
                SELECT r.actor, r.started_at FROM operation_replay r JOIN operation o ON o.id = r.operation_ref
                WHERE o.operation_id = ? AND o.status IN ('ACCEPTED', 'RUNNING', 'AWAITING_APPROVAL', 'AWAITING_INPUT')
                  AND NOT EXISTS (SELECT 1 FROM operation_transition t WHERE t.operation_ref = o.id
                                  AND t.occurred_at > r.started_at
                                  AND t.to_status IN ('SUCCEEDED', 'FAILED', 'NEEDS_REVIEW', 'CANCELLED'))
                ORDER BY r.id DESC LIMIT 1
                """, (row, n) -> new Active(row.getString(1), instant(row.getTimestamp(2))), operationId.value())
                .stream().findFirst();
    }

    /** The replay started from the dry run with this digest, if one was: a second start of the same plan. */
    public Optional<Active> startedWith(OperationId operationId, String planDigest) {
        return jdbc.query("""
                SELECT r.actor, r.started_at FROM operation_replay r JOIN operation o ON o.id = r.operation_ref
                WHERE o.operation_id = ? AND r.plan_digest = ? ORDER BY r.id DESC LIMIT 1
                """, (row, n) -> new Active(row.getString(1), instant(row.getTimestamp(2))), operationId.value(),
                planDigest).stream().findFirst();
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp.toInstant();
    }
}

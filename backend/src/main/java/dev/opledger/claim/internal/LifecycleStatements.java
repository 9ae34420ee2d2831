package dev.opledger.claim.internal;

import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.OperationState;
import dev.opledger.claim.TransitionRecord;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import dev.opledger.outbox.EventType;
import dev.opledger.outbox.OutboxRow;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The status changes of operations, each one statement that changes the row and writes its
 * transition and its event (an outbox row, {@link OutboxRow}), in autocommit: nothing can change a
 * status without leaving its transition and its event.
 */
@Repository
public class LifecycleStatements {

    // Two locking CTEs (FOR UPDATE is not allowed in a UNION): ACCEPTED operations oldest first,
    // then RUNNING ones whose lease expired. SKIP LOCKED lets concurrent workers take disjoint sets.
    private static final String LEASE = """
            WITH accepted AS (
              SELECT id, status FROM operation WHERE status = 'ACCEPTED'
              ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED
            ), expired AS (
              SELECT id, status, lease_owner FROM operation WHERE status = 'RUNNING' AND lease_expires_at < now()
              ORDER BY lease_expires_at LIMIT ? FOR UPDATE SKIP LOCKED
            ), candidates AS (
              SELECT id, status, NULL::text AS previous_owner FROM accepted
              UNION ALL
              SELECT id, status, lease_owner FROM expired
              LIMIT ?
            ), leased AS (
              UPDATE operation o SET status = 'RUNNING', lease_owner = ?, lease_expires_at = now() + ?::interval,
                     run_count = o.run_count + 1, lease_epoch = o.lease_epoch + 1, status_reason = NULL,
                     updated_at = now(), event_sequence = o.event_sequence + 1
              FROM candidates c WHERE o.id = c.id
              RETURNING o.id, o.subject_id, o.operation_id, o.command_type, o.command::text AS command, o.run_count,
                        o.lease_epoch, o.event_sequence, c.status AS previous_status, c.previous_owner
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, previous_status, 'RUNNING', ?,
                     CASE WHEN previous_status = 'RUNNING' THEN 'taken over: the lease of ' || previous_owner || ' expired' END
              FROM leased
            ), event AS (
              %s
              SELECT id, operation_id, subject_id, event_sequence,
                     CASE WHEN previous_status = 'RUNNING' THEN '%s' ELSE '%s' END, 'RUNNING', NULL, NULL,
                     jsonb_build_object('runCount', run_count)
              FROM leased
            )
            SELECT * FROM leased ORDER BY id
            """.formatted(OutboxRow.INSERT, EventType.OperationTakenOver, EventType.OperationRunning);

    // A lease is renewed only in its own epoch: a node that stalled cannot extend a lease taken over since.
    private static final String HEARTBEAT = """
            UPDATE operation o SET lease_expires_at = now() + ?::interval
            FROM unnest(?::uuid[], ?::bigint[]) AS f(operation_id, epoch)
            WHERE o.operation_id = f.operation_id AND o.lease_epoch = f.epoch AND o.status = 'RUNNING' AND o.lease_owner = ?
            RETURNING o.operation_id, o.lease_epoch
            """;

    // Ends the run only in the epoch of the lease it ran in: after a takeover the stale node's end changes nothing.
    private static final String FINISH = """
            WITH finished AS (
              UPDATE operation SET status = ?, status_reason = ?, lease_owner = NULL, lease_expires_at = NULL,
                     updated_at = now(), event_sequence = event_sequence + 1
              WHERE operation_id = ? AND status = 'RUNNING' AND lease_owner = ? AND lease_epoch = ?
              RETURNING id, operation_id, subject_id, event_sequence, status, status_reason, command_type, payload_hash,
                        created_at, updated_at
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, 'RUNNING', ?, ?, ? FROM finished
            ), event AS (
              %s
              SELECT id, operation_id, subject_id, event_sequence, ?, status, NULL, NULL,
                     jsonb_strip_nulls(jsonb_build_object('reason', status_reason))
              FROM finished
            )
            SELECT subject_id, operation_id, command_type, status, payload_hash, created_at, updated_at FROM finished
            """.formatted(OutboxRow.INSERT);

    private static final String DECIDE = """
            WITH decided AS (
              UPDATE operation SET status = ?, status_reason = ?, updated_at = now(), event_sequence = event_sequence + 1
              WHERE operation_id = ? AND status = ? AND lease_owner IS NULL
              RETURNING id, operation_id, subject_id, event_sequence, status, status_reason
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, ?, ?, ?, ? FROM decided
            ), event AS (
              %s
              SELECT id, operation_id, subject_id, event_sequence, ?, status, NULL, NULL,
                     jsonb_strip_nulls(jsonb_build_object('reason', status_reason))
              FROM decided
            )
            SELECT count(*) FROM decided
            """.formatted(OutboxRow.INSERT);

    // By subject and operationId: a person decides on the operation of the subject the console shows.
    private static final String DECIDE_APPROVAL = """
            WITH decided AS (
              UPDATE operation SET status = 'ACCEPTED', status_reason = ?, updated_at = now(),
                     event_sequence = event_sequence + 1
              WHERE subject_id = ? AND operation_id = ? AND status = 'AWAITING_APPROVAL' AND lease_owner IS NULL
              RETURNING id, operation_id, subject_id, event_sequence
            ), approval AS (
              INSERT INTO operation_approval (operation_ref, decision, actor, reason)
              SELECT id, ?, ?, ? FROM decided
              RETURNING decision
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, 'AWAITING_APPROVAL', 'ACCEPTED', ?, ? FROM decided
            ), event AS (
              %s
              SELECT d.id, d.operation_id, d.subject_id, d.event_sequence, '%s', 'ACCEPTED', NULL, NULL,
                     jsonb_build_object('decision', a.decision)
              FROM decided d CROSS JOIN approval a
            )
            SELECT count(*) FROM decided
            """.formatted(OutboxRow.INSERT, EventType.ApprovalDecided);

    private final JdbcTemplate jdbc;

    LifecycleStatements(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public List<LeasedOperation> lease(String node, int max, Duration lease) {
        return jdbc.query(LEASE, (row, n) -> leased(row), max, max, max, node, interval(lease), node);
    }

    public Set<Fence> heartbeat(String node, Collection<Fence> fences, Duration lease) {
        return jdbc.execute((ConnectionCallback<Set<Fence>>) connection -> {
            Array ids = connection.createArrayOf("uuid", fences.stream().map(f -> f.operationId().value()).toArray());
            Array epochs = connection.createArrayOf("bigint", fences.stream().map(Fence::epoch).toArray());
            try (var statement = connection.prepareStatement(HEARTBEAT)) {
                statement.setString(1, interval(lease));
                statement.setArray(2, ids);
                statement.setArray(3, epochs);
                statement.setString(4, node);
                Set<Fence> held = new HashSet<>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        held.add(new Fence(new OperationId(rows.getObject(1, UUID.class)), rows.getLong(2)));
                    }
                }
                return held;
            }
        });
    }

    /** The operation as the run left it; empty, and nothing written, when the lease is no longer the node's. */
    public Optional<OperationState> finishRun(Fence fence, String node, OperationStatus to, @Nullable String reason) {
        return jdbc.query(FINISH, (row, n) -> new OperationState(new SubjectId(row.getString("subject_id")),
                        new OperationId(row.getObject("operation_id", UUID.class)), row.getString("command_type"),
                        OperationStatus.valueOf(row.getString("status")), new PayloadHash(row.getBytes("payload_hash")),
                        row.getTimestamp("created_at").toInstant(), row.getTimestamp("updated_at").toInstant()),
                to.name(), reason, fence.operationId().value(), node, fence.epoch(), to.name(), node, reason,
                EventType.entering(to).name()).stream().findFirst();
    }

    public boolean decide(OperationId operationId, OperationStatus from, OperationStatus to, String actor, String reason) {
        Long decided = jdbc.queryForObject(DECIDE, Long.class, to.name(), reason, operationId.value(), from.name(),
                from.name(), to.name(),
                "console:" + actor, reason, EventType.entering(to).name());
        return decided != null && decided == 1;
    }

    public boolean decideApproval(SubjectId subject, OperationId operationId, boolean approved, String actor,
            @Nullable String reason) {
        String decision = approved ? "APPROVED" : "REJECTED";
        String summary = (approved ? "approved by " : "rejected by ") + actor + (reason == null ? "" : ": " + reason);
        Long decided = jdbc.queryForObject(DECIDE_APPROVAL, Long.class, summary, subject.value(), operationId.value(),
                decision, actor, reason,
                "console:" + actor, summary);
        return decided != null && decided == 1;
    }

    // The reads go from the operationId (unique index) to the ledger's key, and by that key to the rows.
    public Optional<ApprovalDecision> approval(OperationId operationId) {
        return jdbc.query("SELECT a.decision, a.actor, a.reason, a.decided_at FROM operation_approval a "
                        + "JOIN operation o ON o.id = a.operation_ref WHERE o.operation_id = ?",
                (row, n) -> new ApprovalDecision(operationId, row.getString(1).equals("APPROVED"), row.getString(2),
                        row.getString(3), row.getTimestamp(4).toInstant()),
                operationId.value()).stream().findFirst();
    }

    public List<TransitionRecord> transitions(OperationId operationId) {
        return jdbc.query("SELECT t.from_status, t.to_status, t.occurred_at, t.node_id, t.reason FROM operation_transition t "
                        + "JOIN operation o ON o.id = t.operation_ref WHERE o.operation_id = ? ORDER BY t.id",
                (row, n) -> new TransitionRecord(
                        row.getString(1) == null ? null : OperationStatus.valueOf(row.getString(1)),
                        OperationStatus.valueOf(row.getString(2)), row.getTimestamp(3).toInstant(), row.getString(4),
                        row.getString(5)),
                operationId.value());
    }

    private static LeasedOperation leased(ResultSet row) throws SQLException {
        var fence = new Fence(new OperationId(row.getObject("operation_id", UUID.class)), row.getLong("lease_epoch"));
        return new LeasedOperation(new SubjectId(row.getString("subject_id")), fence,
                row.getString("command_type"),
                row.getString("command"), row.getInt("run_count"), OperationStatus.valueOf(row.getString("previous_status")));
    }

    private static String interval(Duration duration) {
        return duration.toMillis() + " milliseconds";
    }
}

package dev.opledger.claim.internal;

import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.ClientInput;
import dev.opledger.claim.InputOutcome;
import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.CancelResolution;
import dev.opledger.claim.FailureKind;
import dev.opledger.claim.Heartbeat;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.OperationState;
import dev.opledger.claim.TransitionRecord;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SqlStatement;
import dev.opledger.operation.SubjectId;
import dev.opledger.outbox.EventType;
import dev.opledger.outbox.OutboxRow;
import dev.opledger.outbox.OutboxTrace;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The status changes of operations, each one statement that changes the row and writes its
 * transition and its event (an outbox row, {@link OutboxRow}), in autocommit: nothing can change a
 * status without leaving its transition and its event.
 */
@Repository
public class LifecycleStatements {

    /** Who acknowledges a cancel of an operation no worker holds: the ledger itself, in the request's statement. */
    private static final String LEDGER = "ledger";

    // Two locking CTEs (FOR UPDATE is not allowed in a UNION): RUNNING operations whose lease
    // expired, longest expired first, then ACCEPTED ones oldest first: a dead node's work is taken
    // over as soon as its lease ends, not after the backlog of new work (./opledger prove measured
    // 24 s for a 3 s lease with accepted first). SKIP LOCKED lets concurrent workers take disjoint sets.
    private static final String LEASE = """
            WITH expired AS (
              SELECT id, status, lease_owner FROM operation WHERE status = 'RUNNING' AND lease_expires_at < now()
              ORDER BY lease_expires_at LIMIT ? FOR UPDATE SKIP LOCKED
            ), accepted AS (
              SELECT id, status FROM operation WHERE status = 'ACCEPTED'
              ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED
            ), candidates AS (
              SELECT id, status, lease_owner AS previous_owner FROM expired
              UNION ALL
              SELECT id, status, NULL::text FROM accepted
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
                     jsonb_build_object('runCount', run_count), trace.context
              FROM leased %s
            )
            SELECT * FROM leased ORDER BY id
            """.formatted(OutboxRow.INSERT, EventType.OperationTakenOver, EventType.OperationRunning, OutboxRow.TRACE);

    // A lease is renewed only in its own epoch: a node that stalled cannot extend a lease taken over since.
    // The renewed row says whether a cancel is pending on it: a long step learns of it from here.
    private static final String HEARTBEAT = """
            UPDATE operation o SET lease_expires_at = now() + ?::interval
            FROM unnest(?::uuid[], ?::bigint[]) AS f(operation_id, epoch)
            WHERE o.operation_id = f.operation_id AND o.lease_epoch = f.epoch AND o.status = 'RUNNING' AND o.lease_owner = ?
            RETURNING o.operation_id, o.lease_epoch, o.cancel_pending_since IS NOT NULL
            """;

    // Ends the run only in the epoch of the lease it ran in: after a takeover the stale node's end changes nothing.
    // The end of a run is also its last step boundary: a cancel pending on the operation (locked
    // here, so a request either commits before and is seen, or waits and finds the run ended) is
    // acknowledged by this node and resolved in the same statement. A run that stopped awaiting
    // approval with a cancel pending ends CANCELLED (it would have no further effect); the
    // resolution names the effect that landed after the request (no effect starts after one:
    // EffectRecords refuses STARTED), or the never-repeat call whose outcome is unknown.
    private static final String FINISH = """
            WITH run AS (
              SELECT id, cancel_pending_since FROM operation
              WHERE operation_id = ? AND status = 'RUNNING' AND lease_owner = ? AND lease_epoch = ?
              FOR NO KEY UPDATE
            ), landed AS (
              SELECT e.step_key, e.tool FROM effect_record e JOIN run r ON e.operation_ref = r.id
              WHERE r.cancel_pending_since IS NOT NULL AND e.status = 'SUCCEEDED' AND e.finished_at >= r.cancel_pending_since
              ORDER BY e.finished_at DESC LIMIT 1
            ), unknown AS (
              SELECT e.step_key, e.tool FROM effect_record e JOIN run r ON e.operation_ref = r.id
              WHERE r.cancel_pending_since IS NOT NULL AND e.status = 'STARTED'
              ORDER BY e.started_at DESC LIMIT 1
            ), ending AS (
              SELECT r.id, r.cancel_pending_since IS NOT NULL AS cancelled,
                     CASE WHEN r.cancel_pending_since IS NOT NULL AND ?::text IN ('AWAITING_APPROVAL', 'AWAITING_INPUT')
                          THEN 'CANCELLED'
                          ELSE ?::text END AS to_status
              FROM run r
            ), resolved AS (
              SELECT n.id, n.cancelled, n.to_status,
                     CASE WHEN NOT n.cancelled THEN NULL
                          WHEN n.to_status = 'NEEDS_REVIEW' THEN 'NEEDS_REVIEW'
                          WHEN l.step_key IS NOT NULL THEN 'EFFECT_COMMITTED_ANYWAY'
                          WHEN n.to_status = 'SUCCEEDED' THEN 'COMPLETED'
                          ELSE 'STOPPED' END AS resolution,
                     CASE WHEN n.to_status = 'NEEDS_REVIEW' THEN u.step_key ELSE l.step_key END AS step,
                     CASE WHEN n.to_status = 'NEEDS_REVIEW' THEN u.tool ELSE l.tool END AS tool
              FROM ending n LEFT JOIN landed l ON true LEFT JOIN unknown u ON true
            ), finished AS (
              UPDATE operation o SET status = r.to_status,
                     status_reason = CASE WHEN r.to_status = 'CANCELLED' AND ?::text <> 'CANCELLED'
                                          THEN 'cancelled while it waited for '
                                               || CASE WHEN ?::text = 'AWAITING_INPUT' THEN 'input from the client'
                                                       ELSE 'approval' END
                                          ELSE ?::text END,
                     failure_kind = CASE WHEN r.to_status = 'FAILED' THEN ?::text END,
                     lease_owner = NULL, lease_expires_at = NULL, cancel_pending_since = NULL, updated_at = now(),
                     event_sequence = o.event_sequence + 1 + CASE WHEN r.cancelled THEN 1 ELSE 0 END
                                      + CASE WHEN r.resolution = 'EFFECT_COMMITTED_ANYWAY' THEN 1 ELSE 0 END
              FROM resolved r WHERE o.id = r.id
              RETURNING o.id, o.operation_id, o.subject_id, o.event_sequence, o.status, o.status_reason,
                        o.command_type, o.payload_hash, o.created_at, o.updated_at, o.failure_kind,
                        r.cancelled, r.resolution, r.step, r.tool
            ), cancel AS (
              UPDATE operation_cancel c SET acknowledged_at = now(), acknowledged_by = ?, resolution = f.resolution,
                     resolution_step = f.step, resolution_tool = f.tool, resolved_at = now()
              FROM finished f WHERE c.operation_ref = f.id AND f.cancelled
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, 'RUNNING', status, ?, status_reason FROM finished
            ), event AS (
              %s
              SELECT f.id, f.operation_id, f.subject_id, f.event_sequence - e.back, e.type, e.status, e.tool, e.step_key,
                     e.payload, trace.context
              FROM finished f CROSS JOIN LATERAL (VALUES
                (CASE WHEN f.resolution = 'EFFECT_COMMITTED_ANYWAY' THEN 2 ELSE 1 END, '%s', 'RUNNING', NULL, NULL,
                 jsonb_build_object('acknowledgedBy', ?::text), f.cancelled),
                (1, '%s', 'RUNNING', f.tool, f.step, '{}'::jsonb, f.resolution = 'EFFECT_COMMITTED_ANYWAY'),
                (0, CASE WHEN f.status = 'CANCELLED' THEN '%s' ELSE ?::text END, f.status, NULL, NULL,
                 jsonb_strip_nulls(jsonb_build_object('reason', f.status_reason, 'inputKeys',
                   CASE WHEN f.status = 'AWAITING_INPUT' THEN (SELECT jsonb_agg(i.request_key ORDER BY i.request_key)
                     FROM operation_input i WHERE i.operation_ref = f.id AND i.response IS NULL) END)), true)
              ) AS e(back, type, status, tool, step_key, payload, applies) %s
              WHERE e.applies
            )
            SELECT subject_id, operation_id, command_type, status, payload_hash, created_at, updated_at, failure_kind
            FROM finished
            """.formatted(OutboxRow.INSERT, EventType.CancelAcknowledged, EventType.CancelEffectCommitted,
            EventType.OperationCancelled, OutboxRow.TRACE);

    // A run's requests for input, written only by the node holding the run's lease in its epoch
    // (in the transaction that then ends the run AWAITING_INPUT). A key asked before keeps its
    // first request (a run that asks again after a crash asks the same); returns the keys open.
    private static final String ASK_INPUT = """
            WITH run AS (
              SELECT id FROM operation WHERE operation_id = ? AND status = 'RUNNING' AND lease_owner = ? AND lease_epoch = ?
            ), asked AS (
              INSERT INTO operation_input (operation_ref, request_key, request)
              SELECT run.id, r.key, r.value FROM run CROSS JOIN jsonb_each(?::jsonb) AS r(key, value)
              ON CONFLICT (operation_ref, request_key) DO NOTHING
              RETURNING request_key
            )
            SELECT r.key FROM run CROSS JOIN jsonb_object_keys(?::jsonb) AS r(key)
            WHERE r.key IN (SELECT request_key FROM asked)
               OR EXISTS (SELECT 1 FROM operation_input i WHERE i.operation_ref = run.id AND i.request_key = r.key
                          AND i.response IS NULL)
            """;

    // The lock of an answer: the subject's operation, only while it awaits input and no worker holds it.
    private static final String LOCK_AWAITING_INPUT = """
            SELECT id FROM operation
            WHERE subject_id = ? AND operation_id = ? AND status = 'AWAITING_INPUT' AND lease_owner IS NULL
            FOR NO KEY UPDATE
            """;

    // An answer, after LOCK_AWAITING_INPUT in the same transaction (so this statement's snapshot
    // sees every answer committed before: of concurrent answers each fills only keys still open,
    // and the one that fills the last resumes). Keys not open are ignored. With none left open the
    // operation goes back to the workers, with its transition; the event names the keys filled.
    private static final String ANSWER_INPUT = """
            WITH answered AS (
              UPDATE operation_input i SET response = r.value, answered_at = now(), answered_by = ?
              FROM jsonb_each(?::jsonb) AS r(key, value)
              WHERE i.operation_ref = ? AND i.request_key = r.key AND i.response IS NULL
              RETURNING i.request_key
            ), still_open AS (
              SELECT count(*) AS n FROM operation_input i
              WHERE i.operation_ref = ? AND i.response IS NULL AND i.request_key NOT IN (SELECT request_key FROM answered)
            ), changed AS (
              UPDATE operation o SET status = CASE WHEN s.n = 0 THEN 'ACCEPTED' ELSE 'AWAITING_INPUT' END,
                     status_reason = CASE WHEN s.n = 0 THEN ? ELSE o.status_reason END,
                     updated_at = now(), event_sequence = o.event_sequence + 1
              FROM still_open s
              WHERE o.id = ? AND EXISTS (SELECT 1 FROM answered)
              RETURNING o.id, o.operation_id, o.subject_id, o.event_sequence, o.status, o.status_reason
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, 'AWAITING_INPUT', 'ACCEPTED', ?, status_reason FROM changed WHERE status = 'ACCEPTED'
            ), event AS (
              %s
              SELECT c.id, c.operation_id, c.subject_id, c.event_sequence, '%s', c.status, NULL, NULL,
                     jsonb_build_object('inputKeys', (SELECT jsonb_agg(request_key ORDER BY request_key) FROM answered)),
                     trace.context
              FROM changed c %s
            )
            SELECT a.request_key, (SELECT status FROM changed) AS status FROM answered a ORDER BY a.request_key
            """.formatted(OutboxRow.INSERT, EventType.InputProvided, OutboxRow.TRACE);

    // A cancel, once per operation, by operationId and (for the API and MCP) subject. The locking
    // select sees a concurrent request's commit (READ COMMITTED rechecks the locked row), so of
    // duplicates at once one records the request and the others find it. An operation no worker
    // holds (ACCEPTED, AWAITING_APPROVAL) is cancelled at once, the ledger acknowledging; a RUNNING
    // one gets cancel_pending_since, which its worker meets at its next step boundary.
    private static final String REQUEST_CANCEL = """
            WITH target AS (
              SELECT id, status FROM operation
              WHERE operation_id = ? AND (?::text IS NULL OR subject_id = ?)
                AND status IN ('ACCEPTED', 'RUNNING', 'AWAITING_APPROVAL', 'AWAITING_INPUT') AND cancel_pending_since IS NULL
                AND NOT EXISTS (SELECT 1 FROM operation_cancel c WHERE c.operation_ref = operation.id)
              FOR NO KEY UPDATE
            ), requested AS (
              UPDATE operation o SET status = CASE WHEN t.status = 'RUNNING' THEN 'RUNNING' ELSE 'CANCELLED' END,
                     cancel_pending_since = CASE WHEN t.status = 'RUNNING' THEN now() END,
                     status_reason = CASE WHEN t.status = 'RUNNING' THEN o.status_reason ELSE ?::text END,
                     updated_at = now(),
                     event_sequence = o.event_sequence + CASE WHEN t.status = 'RUNNING' THEN 1 ELSE 3 END
              FROM target t WHERE o.id = t.id
              RETURNING o.id, o.operation_id, o.subject_id, o.event_sequence, o.status_reason, t.status AS from_status,
                        t.status <> 'RUNNING' AS direct
            ), cancel AS (
              INSERT INTO operation_cancel (operation_ref, requested_by, channel, reason, acknowledged_at, acknowledged_by,
                                            resolution, resolved_at)
              SELECT id, ?, ?, ?, CASE WHEN direct THEN now() END, CASE WHEN direct THEN '%1$s' END,
                     CASE WHEN direct THEN 'STOPPED' END, CASE WHEN direct THEN now() END
              FROM requested
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, from_status, 'CANCELLED', ?, status_reason FROM requested WHERE direct
            ), event AS (
              %2$s
              SELECT r.id, r.operation_id, r.subject_id, r.event_sequence - e.back, e.type, e.status, NULL, NULL, e.payload,
                     trace.context
              FROM requested r CROSS JOIN LATERAL (VALUES
                (CASE WHEN r.direct THEN 2 ELSE 0 END, '%3$s', r.from_status, jsonb_build_object('channel', ?::text), true),
                (1, '%4$s', r.from_status, jsonb_build_object('acknowledgedBy', '%1$s'), r.direct),
                (0, '%5$s', 'CANCELLED', jsonb_strip_nulls(jsonb_build_object('reason', r.status_reason)), r.direct)
              ) AS e(back, type, status, payload, applies) %6$s
              WHERE e.applies
            )
            SELECT count(*) FROM requested
            """.formatted(LEDGER, OutboxRow.INSERT, EventType.CancelRequested, EventType.CancelAcknowledged,
            EventType.OperationCancelled, OutboxRow.TRACE);

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
                     jsonb_strip_nulls(jsonb_build_object('reason', status_reason)), trace.context
              FROM decided %s
            )
            SELECT count(*) FROM decided
            """.formatted(OutboxRow.INSERT, OutboxRow.TRACE);

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
                     jsonb_build_object('decision', a.decision), trace.context
              FROM decided d CROSS JOIN approval a %s
            )
            SELECT count(*) FROM decided
            """.formatted(OutboxRow.INSERT, EventType.ApprovalDecided, OutboxRow.TRACE);

    // By subject and operationId, as an approval; the event names the step whose effect was resolved.
    private static final String RESOLVE_REVIEW = """
            WITH resolved AS (
              UPDATE operation SET status = 'ACCEPTED', status_reason = ?, updated_at = now(),
                     event_sequence = event_sequence + 1
              WHERE subject_id = ? AND operation_id = ? AND status = 'NEEDS_REVIEW' AND lease_owner IS NULL
              RETURNING id, operation_id, subject_id, event_sequence
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, 'NEEDS_REVIEW', 'ACCEPTED', ?, ? FROM resolved
            ), event AS (
              %s
              SELECT id, operation_id, subject_id, event_sequence, '%s', 'ACCEPTED', ?, ?,
                     jsonb_build_object('resolution', ?::text), trace.context
              FROM resolved %s
            )
            SELECT count(*) FROM resolved
            """.formatted(OutboxRow.INSERT, EventType.ReviewResolved, OutboxRow.TRACE);

    // By subject and operationId, as a review; the approval decided after the checkpoint goes, so the fork asks again.
    private static final String START_REPLAY = """
            WITH target AS (
              SELECT id, status FROM operation
              WHERE subject_id = ? AND operation_id = ? AND status = ANY (?::text[]) AND lease_owner IS NULL
              FOR UPDATE
            ), started AS (
              UPDATE operation o SET status = 'ACCEPTED', status_reason = ?, failure_kind = NULL, updated_at = now(),
                     event_sequence = o.event_sequence + 1
              FROM target t WHERE o.id = t.id
              RETURNING o.id, o.operation_id, o.subject_id, o.event_sequence, t.status AS from_status
            ), undone AS (
              DELETE FROM operation_approval a USING started s WHERE a.operation_ref = s.id AND a.decided_at > ?
              RETURNING a.decision, a.actor, a.reason, a.decided_at
            ), transition AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status, node_id, reason)
              SELECT id, from_status, 'ACCEPTED', ?, ? FROM started
            ), event AS (
              %s
              SELECT id, operation_id, subject_id, event_sequence, '%s', 'ACCEPTED', NULL, NULL,
                     jsonb_build_object('fromCheckpoint', ?::text, 'reason', ?::text), trace.context
              FROM started %s
            )
            SELECT s.from_status, u.decision, u.actor, u.reason, u.decided_at FROM started s LEFT JOIN undone u ON true
            """.formatted(OutboxRow.INSERT, EventType.ReplayStarted, OutboxRow.TRACE);

    public Optional<dev.opledger.claim.ReplayLock> lockForReplay(SubjectId subject, OperationId operationId,
            boolean lock) {
        return jdbc.query("SELECT status, event_sequence, lease_owner IS NOT NULL, command_type FROM operation "
                        + "WHERE subject_id = ? AND operation_id = ?" + (lock ? " FOR UPDATE" : ""),
                (row, n) -> new dev.opledger.claim.ReplayLock(OperationStatus.valueOf(row.getString(1)), row.getLong(2),
                        row.getBoolean(3), row.getString(4)),
                subject.value(), operationId.value()).stream().findFirst();
    }

    public Optional<dev.opledger.claim.ReplayStart> startReplay(SubjectId subject, OperationId operationId,
            Set<OperationStatus> replayable, String actor, String reason, UUID fromCheckpoint, Instant checkpointAt) {
        return jdbc.execute((ConnectionCallback<Optional<dev.opledger.claim.ReplayStart>>) connection -> {
            Array statuses = connection.createArrayOf("text", replayable.stream().map(Enum::name).toArray());
            try (var statement = connection.prepareStatement(START_REPLAY)) {
                int i = 1;
                statement.setString(i++, subject.value());
                statement.setObject(i++, operationId.value());
                statement.setArray(i++, statuses);
                statement.setString(i++, reason);
                statement.setObject(i++, checkpointAt.atOffset(java.time.ZoneOffset.UTC));
                statement.setString(i++, "console:" + actor);
                statement.setString(i++, reason);
                statement.setString(i++, fromCheckpoint.toString());
                statement.setString(i++, reason);
                statement.setString(i++, trace.current());
                try (ResultSet row = statement.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    OperationStatus from = OperationStatus.valueOf(row.getString(1));
                    Optional<ApprovalDecision> undone = row.getString(2) == null ? Optional.empty()
                            : Optional.of(new ApprovalDecision(operationId, row.getString(2).equals("APPROVED"),
                                    row.getString(3), row.getString(4), row.getTimestamp(5).toInstant()));
                    return Optional.of(new dev.opledger.claim.ReplayStart(from, undone));
                }
            }
        });
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final OutboxTrace trace;

    LifecycleStatements(JdbcTemplate jdbc, PlatformTransactionManager transactions, OutboxTrace trace) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactions);
        this.trace = trace;
    }

    /**
     * Records the run's requests for input ({@code requestsJson}: an object by key) and ends the
     * run AWAITING_INPUT, in one transaction, only while {@code node} holds the lease in the
     * fence's epoch (else empty, nothing written). A request asked again under a key already
     * answered is the run's bug: the run breaks down (FAILED, {@link FailureKind#BROKE_DOWN})
     * rather than wait for an answer that never comes.
     */
    public Optional<OperationState> awaitInput(Fence fence, String node, String requestsJson, int asked,
            @Nullable String reason) {
        return transactions.execute(status -> {
            List<String> open = jdbc.queryForList(ASK_INPUT, String.class, fence.operationId().value(), node,
                    fence.epoch(), requestsJson, requestsJson);
            if (open.size() != asked) {
                return finishRun(fence, node, OperationStatus.FAILED,
                        "the run asked for input under a key already answered", FailureKind.BROKE_DOWN);
            }
            return finishRun(fence, node, OperationStatus.AWAITING_INPUT, reason, FailureKind.OUTCOME);
        });
    }

    /**
     * Records the client's answers ({@code responsesJson}: an object by request key) to the
     * subject's operation's open requests, each at most once, and hands the operation back to the
     * workers when none is left open. Empty when the subject has no such operation awaiting input
     * (nothing written); else the keys this call filled (none: each was answered before or never
     * asked) and whether it resumed the operation.
     */
    public Optional<InputOutcome.Recorded> answerInput(SubjectId subject, OperationId operationId, String responsesJson,
            String answeredBy) {
        return transactions.execute(status -> {
            List<Long> locked = jdbc.queryForList(LOCK_AWAITING_INPUT, Long.class, subject.value(), operationId.value());
            if (locked.isEmpty()) {
                return Optional.<InputOutcome.Recorded>empty();
            }
            long id = locked.getFirst();
            List<String> answered = new ArrayList<>();
            boolean[] resumed = {false};
            jdbc.query(ANSWER_INPUT, row -> {
                answered.add(row.getString(1));
                resumed[0] = "ACCEPTED".equals(row.getString(2));
            }, answeredBy, responsesJson, id, id, "input from the client (" + answeredBy + ")", id, answeredBy,
                    trace.current());
            return Optional.of(new InputOutcome.Recorded(List.copyOf(answered), resumed[0]));
        });
    }

    /** The operation's requests for input and their answers, in the order they were asked. */
    public List<ClientInput> inputs(OperationId operationId) {
        return jdbc.query("""
                        SELECT i.request_key, i.request::text, i.requested_at, i.response::text, i.answered_at
                        FROM operation_input i JOIN operation o ON o.id = i.operation_ref WHERE o.operation_id = ?
                        ORDER BY i.requested_at, i.request_key
                        """,
                (row, n) -> new ClientInput(row.getString(1), row.getString(2), row.getTimestamp(3).toInstant(),
                        row.getString(4), instant(row.getTimestamp(5))),
                operationId.value());
    }

    public List<LeasedOperation> lease(String node, int max, Duration lease) {
        return jdbc.query(LEASE, (row, n) -> leased(row), max, max, max, node, interval(lease), node, trace.current());
    }

    public Heartbeat heartbeat(String node, Collection<Fence> fences, Duration lease) {
        return jdbc.execute((ConnectionCallback<Heartbeat>) connection -> {
            Array ids = connection.createArrayOf("uuid", fences.stream().map(f -> f.operationId().value()).toArray());
            Array epochs = connection.createArrayOf("bigint", fences.stream().map(Fence::epoch).toArray());
            try (var statement = connection.prepareStatement(HEARTBEAT)) {
                statement.setString(1, interval(lease));
                statement.setArray(2, ids);
                statement.setArray(3, epochs);
                statement.setString(4, node);
                Set<Fence> held = new HashSet<>();
                Set<Fence> cancelPending = new HashSet<>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        var fence = new Fence(new OperationId(rows.getObject(1, UUID.class)), rows.getLong(2));
                        held.add(fence);
                        if (rows.getBoolean(3)) {
                            cancelPending.add(fence);
                        }
                    }
                }
                return new Heartbeat(held, cancelPending);
            }
        });
    }

    /** The operation as the run left it; empty, and nothing written, when the lease is no longer the node's. */
    public Optional<OperationState> finishRun(Fence fence, String node, OperationStatus to, @Nullable String reason,
            FailureKind failure) {
        return finishing(fence, node, to, reason, failure).run(jdbc);
    }

    /** One of this repository's statements ({@link #finishing}) on its own, in autocommit. */
    public <T> T run(SqlStatement<T> statement) {
        return statement.run(jdbc);
    }

    /** {@link #finishRun} as one statement, to be sent with other writes in one round trip. */
    public SqlStatement<Optional<OperationState>> finishing(Fence fence, String node, OperationStatus to,
            @Nullable String reason, FailureKind failure) {
        return SqlStatement.of(FINISH, rows -> rows.next() ? Optional.of(finished(rows)) : Optional.empty(),
                fence.operationId().value(), node, fence.epoch(), to.name(), to.name(), to.name(), to.name(),
                SqlStatement.text(reason), failure.name(), node, node, node, EventType.entering(to).name(),
                SqlStatement.text(trace.current()));
    }

    private static OperationState finished(ResultSet row) throws SQLException {
        return new OperationState(new SubjectId(row.getString("subject_id")),
                new OperationId(row.getObject("operation_id", UUID.class)), row.getString("command_type"),
                OperationStatus.valueOf(row.getString("status")), new PayloadHash(row.getBytes("payload_hash")),
                row.getTimestamp("created_at").toInstant(), row.getTimestamp("updated_at").toInstant(),
                row.getString("failure_kind") == null ? null : FailureKind.valueOf(row.getString("failure_kind")));
    }

    /**
     * Records a cancel of the operation unless one is recorded or it has ended; true when this call
     * recorded it. {@code subject} null: whichever subject's it is (support staff, by operationId).
     */
    public boolean requestCancel(@Nullable SubjectId subject, OperationId operationId, String requestedBy,
            CancelChannel channel, @Nullable String reason) {
        String subjectId = subject == null ? null : subject.value();
        String summary = "cancelled by " + requestedBy + (reason == null ? "" : ": " + reason);
        Long requested = jdbc.queryForObject(REQUEST_CANCEL, Long.class, operationId.value(), subjectId, subjectId,
                summary, requestedBy, channel.name(), reason, requestedBy, channel.name(), trace.current());
        return requested != null && requested == 1;
    }

    public Optional<CancelRecord> cancel(OperationId operationId) {
        return jdbc.query("""
                        SELECT c.requested_by, c.channel, c.reason, c.requested_at, c.acknowledged_at, c.acknowledged_by,
                               c.resolution, c.resolution_step, c.resolution_tool, c.resolved_at
                        FROM operation_cancel c JOIN operation o ON o.id = c.operation_ref WHERE o.operation_id = ?
                        """,
                (row, n) -> new CancelRecord(row.getString(1), CancelChannel.valueOf(row.getString(2)), row.getString(3),
                        row.getTimestamp(4).toInstant(), instant(row.getTimestamp(5)), row.getString(6),
                        row.getString(7) == null ? null : CancelResolution.valueOf(row.getString(7)), row.getString(8),
                        row.getString(9), instant(row.getTimestamp(10))),
                operationId.value()).stream().findFirst();
    }

    public boolean decide(OperationId operationId, OperationStatus from, OperationStatus to, String actor, String reason) {
        Long decided = jdbc.queryForObject(DECIDE, Long.class, to.name(), reason, operationId.value(), from.name(),
                from.name(), to.name(),
                "console:" + actor, reason, EventType.entering(to).name(), trace.current());
        return decided != null && decided == 1;
    }

    public boolean decideApproval(SubjectId subject, OperationId operationId, boolean approved, String actor,
            @Nullable String reason) {
        String decision = approved ? "APPROVED" : "REJECTED";
        String summary = (approved ? "approved by " : "rejected by ") + actor + (reason == null ? "" : ": " + reason);
        Long decided = jdbc.queryForObject(DECIDE_APPROVAL, Long.class, summary, subject.value(), operationId.value(),
                decision, actor, reason,
                "console:" + actor, summary, trace.current());
        return decided != null && decided == 1;
    }

    public boolean resolveReview(SubjectId subject, OperationId operationId, String actor, String summary,
            String resolution, String tool, String stepKey) {
        Long resolved = jdbc.queryForObject(RESOLVE_REVIEW, Long.class, summary, subject.value(), operationId.value(),
                "console:" + actor, summary, tool, stepKey, resolution, trace.current());
        return resolved != null && resolved == 1;
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

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    private static String interval(Duration duration) {
        return duration.toMillis() + " milliseconds";
    }
}

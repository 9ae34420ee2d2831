package dev.opledger.claim.internal;

import dev.opledger.claim.ClaimOutcome;
import dev.opledger.claim.ClaimRequest;
import dev.opledger.claim.FailureKind;
import dev.opledger.claim.OperationState;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.outbox.OutboxTrace;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The claim as one SQL statement, so the common case costs one database round trip and runs
 * in autocommit (the statement is its own transaction): the operation insert with its first
 * transition ("→ ACCEPTED") and its first event ({@code OperationAccepted}, sequence 1, in the
 * outbox), the attempt (or the key-reuse conflict) and the read of the outcome happen together or
 * not at all. A replay or key reuse inserts no operation, so it writes no transition and no event.
 *
 * <p>Under READ COMMITTED, when a concurrent transaction commits the same key after this
 * statement's snapshot was taken, {@code ON CONFLICT DO NOTHING} skips the insert but the
 * {@code existing} CTE cannot see the row either, so the statement returns nothing and records
 * nothing. Running it again takes a new snapshot that sees the row; that is the only retry.
 *
 * <p>An operationId is unique across subjects ({@code operation_operation_id_uk}), because the
 * graph's thread id is the operationId and tools receive the idempotency key
 * {@code operationId:stepKey}: both must name one operation, whoever claimed it. The statement
 * arbitrates on that index alone and reads whose the row it found is ({@code own}): the subject's
 * own row is a replay or key reuse; another subject's is {@link ClaimOutcome.OperationIdTaken},
 * and the statement records nothing for it (no attempt, no conflict). A concurrent claim of the
 * same id, by any subject, is the race above: the later insert waits for the earlier to commit,
 * skips, and the statement runs again to find the row. (Until issue 13 the arbiter was
 * {@code (subject_id, operation_id)} and another subject's claim failed on the operationId index;
 * claim changelog 013 replaced that constraint with a plain index for the console's subject filter.)
 */
@Repository
public class ClaimStatement {

    // A plain text block, no formatted(): bench/claim/PgbenchScript reads it from this file as it is.
    // ClaimStatementTest checks that its event is OutboxRow.INSERT of EventType.OperationAccepted.
    static final String SQL = """
            WITH offered AS (
              SELECT ?::text AS subject_id, ?::uuid AS operation_id, ?::bytea AS payload_hash,
                     ?::text AS command_type, ?::jsonb AS command,
                     ?::uuid AS request_id, ?::text AS user_agent, ?::inet AS client_address,
                     ?::bytea AS attest_key_id, ?::bigint AS assertion_counter, ?::text AS channel,
                     ?::text AS trace_context
            ), claimed AS (
              INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command, attested,
                                     event_sequence)
              SELECT subject_id, operation_id, payload_hash, command_type, command, attest_key_id IS NOT NULL, 1
              FROM offered
              ON CONFLICT (operation_id) DO NOTHING
              RETURNING id, payload_hash, command_type, status, failure_kind, created_at, updated_at, true AS created,
                        true AS own
            ), accepted AS (
              INSERT INTO operation_transition (operation_ref, from_status, to_status)
              SELECT id, NULL, 'ACCEPTED' FROM claimed
            ), event AS (
              INSERT INTO outbox_event (operation_ref, operation_id, subject_id, sequence, type, status, tool, step_key, payload, trace_context)
              SELECT c.id, f.operation_id, f.subject_id, 1, 'OperationAccepted', 'ACCEPTED', NULL, NULL,
                     jsonb_build_object('commandType', c.command_type), f.trace_context
              FROM claimed c CROSS JOIN offered f
            ), existing AS (
              SELECT o.id, o.payload_hash, o.command_type, o.status, o.failure_kind, o.created_at, o.updated_at, false AS created,
                     o.subject_id = f.subject_id AS own
              FROM operation o JOIN offered f ON o.operation_id = f.operation_id
            ), found AS (
              SELECT * FROM claimed UNION ALL SELECT * FROM existing
            ), attempt AS (
              INSERT INTO operation_attempt (operation_ref, outcome, request_id, user_agent, client_address,
                                             attest_key_id, assertion_counter, channel)
              SELECT found.id, CASE WHEN found.created THEN 'CLAIMED' ELSE 'REPLAYED' END,
                     f.request_id, f.user_agent, f.client_address, f.attest_key_id, f.assertion_counter, f.channel
              FROM found JOIN offered f ON found.own AND found.payload_hash = f.payload_hash
            ), conflict AS (
              INSERT INTO key_reuse_conflict (operation_ref, stored_payload_hash, offered_payload_hash,
                                              offered_command_type, request_id, user_agent, client_address, channel)
              SELECT found.id, found.payload_hash, f.payload_hash, f.command_type,
                     f.request_id, f.user_agent, f.client_address, f.channel
              FROM found JOIN offered f ON found.own AND found.payload_hash <> f.payload_hash
            )
            SELECT payload_hash, command_type, status, failure_kind, created_at, updated_at, created, own FROM found
            """;

    /** Each race above costs one more run; needing a third would mean the row vanished. */
    private static final int MAX_RUNS = 3;

    private final JdbcTemplate jdbc;
    private final OutboxTrace trace;

    ClaimStatement(JdbcTemplate jdbc, OutboxTrace trace) {
        this.jdbc = jdbc;
        this.trace = trace;
    }

    public ClaimOutcome execute(ClaimRequest request) {
        @Nullable String context = trace.current();
        for (int run = 0; run < MAX_RUNS; run++) {
            List<ClaimOutcome> outcomes = jdbc.query(SQL, statement -> bind(statement, request, context),
                    (row, n) -> outcome(row, request));
            if (!outcomes.isEmpty()) {
                return outcomes.getFirst();
            }
        }
        throw new IllegalStateException("the claim found neither a new nor an existing operation "
                + request.operationId() + " after " + MAX_RUNS + " runs");
    }

    private static void bind(PreparedStatement statement, ClaimRequest request, @Nullable String trace)
            throws SQLException {
        var attempt = request.attempt();
        statement.setString(1, request.subject().value());
        statement.setObject(2, request.operationId().value());
        statement.setBytes(3, request.command().payloadHash().bytes());
        statement.setString(4, request.command().type());
        statement.setString(5, request.command().canonicalJson());
        statement.setObject(6, attempt.requestId());
        setNullableString(statement, 7, attempt.userAgent());
        setNullableString(statement, 8, attempt.clientAddress());
        if (attempt.attested()) {
            statement.setBytes(9, attempt.attestKeyId());
            statement.setLong(10, attempt.assertionCounter());
        } else {
            statement.setNull(9, Types.BINARY);
            statement.setNull(10, Types.BIGINT);
        }
        statement.setString(11, attempt.channel().name());
        setNullableString(statement, 12, trace);
    }

    // Explicit types for nulls: Spring's generic setter would otherwise ask the driver for
    // parameter metadata, which costs a round trip.
    private static void setNullableString(PreparedStatement statement, int index, @Nullable String value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }

    private static ClaimOutcome outcome(ResultSet row, ClaimRequest request) throws SQLException {
        if (!row.getBoolean("own")) {
            return new ClaimOutcome.OperationIdTaken();
        }
        var stored = new OperationState(
                request.subject(),
                request.operationId(),
                row.getString("command_type"),
                OperationStatus.valueOf(row.getString("status")),
                new PayloadHash(row.getBytes("payload_hash")),
                row.getTimestamp("created_at").toInstant(),
                row.getTimestamp("updated_at").toInstant(),
                row.getString("failure_kind") == null ? null : FailureKind.valueOf(row.getString("failure_kind")));
        PayloadHash offered = request.command().payloadHash();
        if (row.getBoolean("created")) {
            return new ClaimOutcome.Claimed(stored);
        }
        return stored.payloadHash().equals(offered)
                ? new ClaimOutcome.Replayed(stored)
                : new ClaimOutcome.KeyReused(stored, offered);
    }
}

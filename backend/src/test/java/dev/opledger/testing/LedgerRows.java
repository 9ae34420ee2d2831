package dev.opledger.testing;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/** Reads the claim tables directly, so tests assert on what was committed, not on what was said. */
public record LedgerRows(JdbcTemplate jdbc) {

    /** Row counts of the three claim tables, for "nothing changed" assertions. */
    public record Counts(long operations, long attempts, long conflicts) {
    }

    public Counts counts() {
        return new Counts(
                count("SELECT count(*) FROM operation"),
                count("SELECT count(*) FROM operation_attempt"),
                count("SELECT count(*) FROM key_reuse_conflict"));
    }

    public List<Map<String, Object>> operations(String subject, UUID operationId) {
        return jdbc.queryForList("SELECT id, subject_id, operation_id, encode(payload_hash, 'hex') AS payload_hash, "
                + "command_type, command::text AS command, status, created_at, updated_at FROM operation "
                + "WHERE subject_id = ? AND operation_id = ?", subject, operationId);
    }

    public List<Map<String, Object>> operationsWithId(UUID operationId) {
        return jdbc.queryForList("SELECT subject_id, encode(payload_hash, 'hex') AS payload_hash FROM operation "
                + "WHERE operation_id = ? ORDER BY id", operationId);
    }

    public List<String> attemptOutcomes(String subject, UUID operationId) {
        return jdbc.queryForList("SELECT a.outcome FROM operation_attempt a JOIN operation o ON o.id = a.operation_ref "
                + "WHERE o.subject_id = ? AND o.operation_id = ? ORDER BY a.id", String.class, subject, operationId);
    }

    public List<Map<String, Object>> conflicts(String subject, UUID operationId) {
        return jdbc.queryForList("SELECT encode(c.stored_payload_hash, 'hex') AS stored_hash, "
                + "encode(c.offered_payload_hash, 'hex') AS offered_hash, c.offered_command_type, c.detected_at, "
                + "c.request_id, c.user_agent, host(c.client_address) AS client_address FROM key_reuse_conflict c "
                + "JOIN operation o ON o.id = c.operation_ref WHERE o.subject_id = ? AND o.operation_id = ? "
                + "ORDER BY c.id", subject, operationId);
    }

    private long count(String sql) {
        Long count = jdbc.queryForObject(sql, Long.class);
        return count == null ? 0 : count;
    }
}

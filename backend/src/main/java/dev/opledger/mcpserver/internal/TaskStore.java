package dev.opledger.mcpserver.internal;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The {@code mcp_task} table: one task per (subject, operationId). The insert commits (autocommit)
 * before the caller answers with the CreateTaskResult, so a {@code tasks/get} for the returned id
 * resolves on any node from then on.
 */
@Repository
class TaskStore {

    /** 256 bits: a task id is unguessable (the spec's "sufficient entropy"). */
    private static final int ID_BYTES = 32;

    // ON CONFLICT DO NOTHING: a concurrent or earlier call for the same operation made the task;
    // the statement that lost waits for that one to commit, then the SELECT below finds it.
    private static final String INSERT = """
            INSERT INTO mcp_task (task_id, subject_id, operation_id, payload_hash)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (subject_id, operation_id) DO NOTHING
            RETURNING task_id, operation_id, payload_hash, created_at
            """;
    private static final String BY_OPERATION = """
            SELECT task_id, operation_id, payload_hash, created_at FROM mcp_task
            WHERE subject_id = ? AND operation_id = ?
            """;
    private static final String BY_ID = """
            SELECT task_id, operation_id, payload_hash, created_at FROM mcp_task
            WHERE task_id = ? AND subject_id = ?
            """;

    record StoredTask(String taskId, OperationId operationId, PayloadHash payloadHash, Instant createdAt) {
    }

    private final JdbcTemplate jdbc;
    private final SecureRandom random = new SecureRandom();

    TaskStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The subject's task for the operation: the one stored, or a new one, committed. */
    StoredTask createOrFind(SubjectId subject, OperationId operationId, PayloadHash payloadHash) {
        List<StoredTask> created = jdbc.query(INSERT, TaskStore::row, newTaskId(), subject.value(),
                operationId.value(), payloadHash.bytes());
        if (!created.isEmpty()) {
            return created.getFirst();
        }
        List<StoredTask> existing = jdbc.query(BY_OPERATION, TaskStore::row, subject.value(), operationId.value());
        if (existing.isEmpty()) {
            throw new IllegalStateException("the task of operation " + operationId + " conflicted but is not there");
        }
        return existing.getFirst();
    }

    /** The task with this id, if it is the subject's; another subject's is not found. */
    Optional<StoredTask> find(SubjectId subject, String taskId) {
        return jdbc.query(BY_ID, TaskStore::row, taskId, subject.value()).stream().findFirst();
    }

    private String newTaskId() {
        byte[] bytes = new byte[ID_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static StoredTask row(ResultSet row, int n) throws SQLException {
        return new StoredTask(row.getString("task_id"), new OperationId(row.getObject("operation_id", UUID.class)),
                new PayloadHash(row.getBytes("payload_hash")), row.getTimestamp("created_at").toInstant());
    }
}

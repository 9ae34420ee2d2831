package dev.opledger.claim.internal;

import dev.opledger.claim.FailureKind;
import dev.opledger.claim.OperationState;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * An operation's state as one statement in autocommit, for the status read
 * ({@code GET /v1/operations/{id}}, the MCP server's task reads), which clients repeat while they
 * wait: through JPA it was a read-only transaction around an entity load, about a third of the
 * read's CPU (docs/benchmarks.md, issue 13), and it loaded the command, which the state does not
 * hold. The columns are {@link OperationState}'s, as {@link ClaimStatement} returns them.
 */
@Repository
public class OperationStateQuery {

    static final String SQL = """
            SELECT command_type, status, payload_hash, created_at, updated_at, failure_kind
            FROM operation WHERE subject_id = ? AND operation_id = ?
            """;

    private final JdbcTemplate jdbc;

    OperationStateQuery(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The subject's own operation as committed now; another subject's operation is not found. */
    public Optional<OperationState> find(SubjectId subject, OperationId operationId) {
        List<OperationState> found = jdbc.query(SQL, statement -> {
            statement.setString(1, subject.value());
            statement.setObject(2, operationId.value());
        }, (row, n) -> {
            String failure = row.getString("failure_kind");
            return new OperationState(subject, operationId, row.getString("command_type"),
                    OperationStatus.valueOf(row.getString("status")), new PayloadHash(row.getBytes("payload_hash")),
                    row.getObject("created_at", OffsetDateTime.class).toInstant(),
                    row.getObject("updated_at", OffsetDateTime.class).toInstant(),
                    failure == null ? null : FailureKind.valueOf(failure));
        });
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }
}

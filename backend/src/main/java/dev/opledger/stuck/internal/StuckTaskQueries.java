package dev.opledger.stuck.internal;

import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.CancelResolution;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.stuck.RecentCancel;
import dev.opledger.stuck.StuckTask;
import dev.opledger.stuck.StuckTaskProperties;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * The stuck-task statements. Both are bounded by what has not ended, whatever the ledger's size:
 * inbound starts from the partial indexes of the statuses that have not ended (claim-004,
 * claim-006) and joins mcp_task by its key, so the history of tasks is not read; outbound reads
 * RUNNING operations (their partial index) and the STARTED effect records (effect-001's partial
 * index: the calls in flight, and those a never-repeat call left for review). The
 * thresholds are bound as two arrays (tool, milliseconds); a tool not among them has the default.
 * The statuses are ORed equalities, not {@code IN (…)}: the planner matches each equality to its
 * partial index (a BitmapOr), while an IN list matches none of them and scans the whole table (on
 * a ledger of a million operations, 2 000 of them not ended: 20 000 buffers and a parallel
 * sequential scan with IN, 9 000 buffers through the four partial indexes with OR).
 */
@Repository
public class StuckTaskQueries {

    private static final String THRESHOLDS = """
            WITH threshold (tool, after_ms) AS (SELECT * FROM unnest(?::text[], ?::bigint[]))
            """;
    private static final String CANCEL_COLUMNS = """
            c.requested_by, c.channel, c.reason, c.requested_at, c.acknowledged_at, c.acknowledged_by,
            c.resolution, c.resolution_step, c.resolution_tool, c.resolved_at
            """;
    private static final String OPERATION_COLUMNS = """
            o.operation_id, o.subject_id, o.command_type, o.status, o.updated_at,
            CASE WHEN o.status = 'RUNNING' THEN o.lease_owner END AS lease_holder,
            o.status = 'RUNNING' AND o.lease_expires_at < now() AS lease_expired,
            """;
    private static final String INBOUND = THRESHOLDS + "SELECT " + OPERATION_COLUMNS + CANCEL_COLUMNS + """
            , o.command_type AS tool, t.task_id AS handle, t.created_at AS since,
            (extract(epoch FROM now() - t.created_at) * 1000)::bigint AS age_ms, coalesce(th.after_ms, ?) AS threshold_ms
            FROM operation o
            JOIN mcp_task t ON t.subject_id = o.subject_id AND t.operation_id = o.operation_id
            LEFT JOIN threshold th ON th.tool = o.command_type
            LEFT JOIN operation_cancel c ON c.operation_ref = o.id
            WHERE (o.status = 'ACCEPTED' OR o.status = 'RUNNING' OR o.status = 'AWAITING_APPROVAL' OR o.status = 'AWAITING_INPUT'
                   OR o.status = 'NEEDS_REVIEW')
              AND t.created_at <= now() - coalesce(th.after_ms, ?) * interval '1 millisecond'
            ORDER BY t.created_at, t.task_id
            OFFSET ? LIMIT ?
            """;
    private static final String OUTBOUND = THRESHOLDS + "SELECT " + OPERATION_COLUMNS + CANCEL_COLUMNS + """
            , e.tool, e.server || '/' || e.tool || '@' || e.step_key || coalesce(' task ' || e.task_id, '') AS handle,
            e.started_at AS since,
            (extract(epoch FROM now() - e.started_at) * 1000)::bigint AS age_ms, coalesce(th.after_ms, ?) AS threshold_ms
            FROM operation o
            JOIN effect_record e ON e.operation_ref = o.id AND e.status = 'STARTED'
            LEFT JOIN threshold th ON th.tool = e.tool
            LEFT JOIN operation_cancel c ON c.operation_ref = o.id
            WHERE o.status = 'RUNNING'
              AND e.started_at <= now() - coalesce(th.after_ms, ?) * interval '1 millisecond'
            ORDER BY e.started_at, o.operation_id, e.step_key
            OFFSET ? LIMIT ?
            """;
    private static final String RECENT_CANCELS = "SELECT o.operation_id, o.subject_id, o.command_type, o.status, "
            + CANCEL_COLUMNS + """
            FROM operation_cancel c JOIN operation o ON o.id = c.operation_ref
            ORDER BY c.requested_at DESC, c.operation_ref DESC
            LIMIT ?
            """;

    private final JdbcTemplate jdbc;

    StuckTaskQueries(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public List<StuckTask> inbound(StuckTaskProperties thresholds, int offset, int limit) {
        return stuck(INBOUND, StuckTask.Direction.INBOUND, thresholds, offset, limit);
    }

    public List<StuckTask> outbound(StuckTaskProperties thresholds, int offset, int limit) {
        return stuck(OUTBOUND, StuckTask.Direction.OUTBOUND, thresholds, offset, limit);
    }

    public List<RecentCancel> recentCancels(int limit) {
        return jdbc.query(RECENT_CANCELS, (row, n) -> new RecentCancel(operationId(row), subject(row),
                row.getString("command_type"), status(row), cancel(row)), limit);
    }

    private List<StuckTask> stuck(String sql, StuckTask.Direction direction, StuckTaskProperties thresholds, int offset,
            int limit) {
        List<Map.Entry<String, Duration>> tools = List.copyOf(thresholds.tools().entrySet());
        long defaultMs = thresholds.threshold().toMillis();
        return jdbc.query(connection -> {
            PreparedStatement statement = connection.prepareStatement(sql);
            statement.setArray(1, connection.createArrayOf("text", tools.stream().map(Map.Entry::getKey).toArray()));
            statement.setArray(2, connection.createArrayOf("bigint",
                    tools.stream().map(tool -> tool.getValue().toMillis()).toArray()));
            statement.setLong(3, defaultMs);
            statement.setLong(4, defaultMs);
            statement.setInt(5, offset);
            statement.setInt(6, limit);
            return statement;
        }, (row, n) -> new StuckTask(direction, operationId(row), subject(row), row.getString("command_type"),
                row.getString("tool"), row.getString("handle"), row.getTimestamp("since").toInstant(),
                Duration.ofMillis(row.getLong("age_ms")), Duration.ofMillis(row.getLong("threshold_ms")), status(row),
                row.getTimestamp("updated_at").toInstant(), row.getString("lease_holder"), row.getBoolean("lease_expired"),
                row.getString("requested_by") == null ? null : cancel(row)));
    }

    private static OperationId operationId(ResultSet row) throws SQLException {
        return new OperationId(row.getObject("operation_id", UUID.class));
    }

    private static SubjectId subject(ResultSet row) throws SQLException {
        return new SubjectId(row.getString("subject_id"));
    }

    private static OperationStatus status(ResultSet row) throws SQLException {
        return OperationStatus.valueOf(row.getString("status"));
    }

    private static CancelRecord cancel(ResultSet row) throws SQLException {
        String resolution = row.getString("resolution");
        return new CancelRecord(row.getString("requested_by"), CancelChannel.valueOf(row.getString("channel")),
                row.getString("reason"), row.getTimestamp("requested_at").toInstant(),
                instant(row.getTimestamp("acknowledged_at")), row.getString("acknowledged_by"),
                resolution == null ? null : CancelResolution.valueOf(resolution), row.getString("resolution_step"),
                row.getString("resolution_tool"), instant(row.getTimestamp("resolved_at")));
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}

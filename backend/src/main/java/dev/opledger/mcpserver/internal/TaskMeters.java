package dev.opledger.mcpserver.internal;

import dev.opledger.claim.FailureKind;
import dev.opledger.operation.OperationStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code opledger.mcp.tasks{status}}: the node's MCP tasks by the status {@code tasks/get}
 * answers ({@link TaskView#status(OperationStatus, FailureKind)}: a task's status is its
 * operation's). Read when scraped, like the operations' gauges: the tasks counted by their
 * operation's status and failure kind, mapped as {@code tasks/get} maps them.
 */
@Component
class TaskMeters implements MeterBinder {

    private static final List<String> TASK_STATUSES = List.of("working", "input_required", "completed", "failed",
            "cancelled");

    private final JdbcTemplate jdbc;

    TaskMeters(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        TASK_STATUSES.forEach(taskStatus -> Gauge.builder("opledger.mcp.tasks", this, meters -> meters.count(taskStatus))
                .description("MCP tasks whose tasks/get answers this status")
                .tag("status", taskStatus)
                .register(registry));
    }

    private long count(String taskStatus) {
        return jdbc.query("""
                SELECT o.status, o.failure_kind, count(*) AS tasks FROM mcp_task t
                JOIN operation o ON o.subject_id = t.subject_id AND o.operation_id = t.operation_id
                GROUP BY o.status, o.failure_kind
                """, (row, n) -> {
            String kind = row.getString("failure_kind");
            String status = TaskView.status(OperationStatus.valueOf(row.getString("status")),
                    kind == null ? null : FailureKind.valueOf(kind));
            return status.equals(taskStatus) ? row.getLong("tasks") : 0L;
        }).stream().mapToLong(Long::longValue).sum();
    }
}

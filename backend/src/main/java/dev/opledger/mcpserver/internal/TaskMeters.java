package dev.opledger.mcpserver.internal;

import dev.opledger.operation.OperationStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code opledger.mcp.tasks{status}}: the node's MCP tasks by the status {@code tasks/get}
 * answers ({@link TaskView#status(OperationStatus)}: a task's status is its operation's). Read when
 * scraped, like the operations' gauges.
 */
@Component
class TaskMeters implements MeterBinder {

    private final JdbcTemplate jdbc;

    TaskMeters(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        var byTaskStatus = Arrays.stream(OperationStatus.values())
                .collect(Collectors.groupingBy(TaskView::status, Collectors.mapping(OperationStatus::name, Collectors.toList())));
        byTaskStatus.forEach((taskStatus, operationStatuses) ->
                Gauge.builder("opledger.mcp.tasks", this, meters -> meters.count(operationStatuses))
                        .description("MCP tasks whose tasks/get answers this status")
                        .tag("status", taskStatus)
                        .register(registry));
    }

    private long count(List<String> operationStatuses) {
        Long count = jdbc.queryForObject("""
                SELECT count(*) FROM mcp_task t
                JOIN operation o ON o.subject_id = t.subject_id AND o.operation_id = t.operation_id
                WHERE o.status = ANY (?)
                """, Long.class, (Object) operationStatuses.toArray(String[]::new));
        return count == null ? 0 : count;
    }
}

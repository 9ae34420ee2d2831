package dev.opledger.tools.mcp;

import dev.opledger.mcptasks.GetTaskResult;
import dev.opledger.mcptasks.TaskHandler;
import dev.opledger.tools.task.StoredTask;
import dev.opledger.tools.task.TaskRunner;
import dev.opledger.tools.task.TaskStore;
import dev.opledger.tools.toolkit.ToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The task tools' tasks behind the extension's methods. A task id is all a caller needs (it is
 * unguessable; this server has no callers' identities). {@code tasks/update} is acknowledged and
 * changes nothing: no task tool asks for input.
 */
final class ModernTasks implements TaskHandler {

    private final TaskStore store;
    private final TaskRunner runner;
    private final Duration pollInterval;

    ModernTasks(TaskStore store, TaskRunner runner, Duration pollInterval) {
        this.store = store;
        this.runner = runner;
        this.pollInterval = pollInterval;
    }

    @Override
    public Optional<GetTaskResult> get(McpRequestContext context, String taskId) {
        return store.poll(taskId).map(this::view);
    }

    @Override
    public boolean update(McpRequestContext context, String taskId, Map<?, ?> params) {
        return store.find(taskId).isPresent();
    }

    @Override
    public boolean cancel(McpRequestContext context, String taskId) {
        return runner.cancel(taskId);
    }

    private GetTaskResult view(StoredTask task) {
        CallToolResult result = null;
        Map<String, Object> error = null;
        switch (task.status()) {
            case "completed" -> {
                String summary = Objects.requireNonNullElse(task.summary(), "");
                Map<String, Object> structured = Objects.requireNonNullElse(task.result(), Map.of());
                result = task.isError()
                        ? ModernTools.result(new ToolOutcome.Failure(String.valueOf(structured.get("error")), summary))
                        : CallToolResult.builder().addContent(TextContent.builder(summary).build())
                                .structuredContent(structured).build();
            }
            case "failed" -> error = Map.of("code", Objects.requireNonNullElse(task.errorCode(), -32603),
                    "message", Objects.requireNonNullElse(task.summary(), "the task failed"));
            default -> {
            }
        }
        return new GetTaskResult(task.taskId(), task.status(), task.summary(), task.createdAt().toString(),
                task.updatedAt().toString(), null, pollInterval.toMillis(), null, result, error, null);
    }
}

package dev.opledger.tools.mcp;

import dev.opledger.mcptasks.CreateTaskResult;
import dev.opledger.mcptasks.TasksExtension;
import dev.opledger.tools.task.StoredTask;
import dev.opledger.tools.task.TaskStart;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.McpSchema.ToolAnnotations;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The tools in the 2026-07-28 revision's types; a task tool requires the tasks extension (a
 * client that does not declare it gets -32021 from the SDK) and answers with its task.
 */
final class ModernTools implements McpSyncToolRepository {

    private static final ClientCapabilities DECLARES_TASKS = ClientCapabilities.builder()
            .extensions(Map.of(TasksExtension.ID, Map.of())).build();

    private final ToolInvoker invoker;
    private final Duration pollInterval;

    ModernTools(ToolInvoker invoker, Duration pollInterval) {
        this.invoker = invoker;
        this.pollInterval = pollInterval;
    }

    @Override
    public ToolsPage list(McpRequestContext context, @Nullable String cursor) {
        return ToolsPage.of(Stream.concat(
                        invoker.tools().stream().map(tool -> definition(tool.descriptor())),
                        invoker.taskTools().stream().map(tool -> definition(tool.descriptor())))
                .sorted(Comparator.comparing(Tool::name)).toList());
    }

    @Override
    public @Nullable McpSyncTool find(McpRequestContext context, String name) {
        var plain = invoker.tool(name).map(tool -> McpSyncTool.of(definition(tool.descriptor()),
                (call, request) -> McpSyncResponse.result(
                        result(invoker.call(tool, request.arguments(), CallEnvironment.of(call.transportContext()))))));
        return plain.or(() -> invoker.taskTool(name).map(tool -> McpSyncTool.of(definition(tool.descriptor()),
                        DECLARES_TASKS, (call, request) -> McpSyncResponse.result(started(
                                invoker.startTask(tool, request.arguments(), CallEnvironment.of(call.transportContext())))))))
                .orElse(null);
    }

    private CallToolOutcome started(TaskStart start) {
        return switch (start) {
            case TaskStart.Started started -> created(started.task());
            case TaskStart.Refused refused -> result(refused.failure());
        };
    }

    private CreateTaskResult created(StoredTask task) {
        return new CreateTaskResult(task.taskId(), task.status(), task.summary(), task.createdAt().toString(),
                task.updatedAt().toString(), null, pollInterval.toMillis(), null);
    }

    private static Tool definition(ToolDescriptor descriptor) {
        var hints = descriptor.hints();
        return Tool.builder(descriptor.name(), descriptor.inputSchema())
                .title(descriptor.title())
                .description(descriptor.description())
                .annotations(new ToolAnnotations(descriptor.title(), hints.readOnlyHint(), hints.destructiveHint(),
                        hints.idempotentHint(), hints.openWorldHint()))
                .meta(descriptor.meta())
                .build();
    }

    static CallToolResult result(ToolOutcome outcome) {
        var result = CallToolResult.builder().addContent(TextContent.builder(outcome.summary()).build());
        return switch (outcome) {
            case ToolOutcome.Success success -> result.structuredContent(success.structured()).build();
            case ToolOutcome.Failure failure -> result.structuredContent(failure.structured()).isError(true).build();
        };
    }
}

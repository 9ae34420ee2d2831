package dev.opledger.tools.mcp;

import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.McpSchema.ToolAnnotations;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import org.jspecify.annotations.Nullable;

/** The tools in the 2026-07-28 revision's types. */
final class ModernTools implements McpSyncToolRepository {

    private final ToolInvoker invoker;

    ModernTools(ToolInvoker invoker) {
        this.invoker = invoker;
    }

    @Override
    public ToolsPage list(McpRequestContext context, @Nullable String cursor) {
        return ToolsPage.of(invoker.tools().stream().map(ModernTools::definition).toList());
    }

    @Override
    public @Nullable McpSyncTool find(McpRequestContext context, String name) {
        return invoker.tool(name)
                .map(tool -> McpSyncTool.of(definition(tool), (call, request) -> McpSyncResponse.result(
                        result(invoker.call(tool, request.arguments(), CallEnvironment.of(call.transportContext()))))))
                .orElse(null);
    }

    private static Tool definition(ReferenceTool tool) {
        ToolDescriptor descriptor = tool.descriptor();
        var hints = descriptor.hints();
        return Tool.builder(descriptor.name(), descriptor.inputSchema())
                .title(descriptor.title())
                .description(descriptor.description())
                .annotations(new ToolAnnotations(descriptor.title(), hints.readOnlyHint(), hints.destructiveHint(),
                        hints.idempotentHint(), hints.openWorldHint()))
                .meta(descriptor.meta())
                .build();
    }

    private static CallToolResult result(ToolOutcome outcome) {
        var result = CallToolResult.builder().addContent(TextContent.builder(outcome.summary()).build());
        return switch (outcome) {
            case ToolOutcome.Success success -> result.structuredContent(success.structured()).build();
            case ToolOutcome.Failure failure -> result.structuredContent(failure.structured()).isError(true).build();
        };
    }
}

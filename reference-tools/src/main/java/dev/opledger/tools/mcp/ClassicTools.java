package dev.opledger.tools.mcp;

import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolOutcome;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.List;

/** The tools in the classic (2025-11-25) revision's types. */
final class ClassicTools {

    private ClassicTools() {
    }

    static List<SyncToolSpecification> of(ToolInvoker invoker) {
        return invoker.tools().stream().map(tool -> SyncToolSpecification.builder()
                .tool(definition(tool))
                .callHandler((exchange, request) -> result(
                        invoker.call(tool, request.arguments(), CallEnvironment.of(exchange.transportContext()))))
                .build())
                .toList();
    }

    private static Tool definition(ReferenceTool tool) {
        ToolDescriptor descriptor = tool.descriptor();
        var hints = descriptor.hints();
        return Tool.builder()
                .name(descriptor.name())
                .title(descriptor.title())
                .description(descriptor.description())
                .inputSchema(descriptor.inputSchema())
                .annotations(new ToolAnnotations(descriptor.title(), hints.readOnlyHint(), hints.destructiveHint(),
                        hints.idempotentHint(), hints.openWorldHint(), null))
                .meta(descriptor.meta())
                .build();
    }

    private static CallToolResult result(ToolOutcome outcome) {
        var result = CallToolResult.builder().addTextContent(outcome.summary());
        return switch (outcome) {
            case ToolOutcome.Success success -> result.structuredContent(success.structured()).isError(false).build();
            case ToolOutcome.Failure failure -> result.structuredContent(failure.structured()).isError(true).build();
        };
    }
}

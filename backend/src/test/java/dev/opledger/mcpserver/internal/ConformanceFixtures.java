package dev.opledger.mcpserver.internal;

import io.modelcontextprotocol.modern.McpSchema.AudioContent;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.Content;
import io.modelcontextprotocol.modern.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.modern.McpSchema.ImageContent;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.TextResourceContents;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.context.annotation.Profile;

/**
 * The sync fixture tools (text, error, image, audio, embedded resource, mixed) the official MCP conformance suite calls (scripts/conformance.sh), beside
 * the node's operation tools. Test sources and profile {@code conformance} only: a production node
 * never serves them. The suite's task-supporting fixtures (slow_compute, failing_job, …) are not
 * here: the node's tasks are operations, so they would need a test operation type and graph.
 */
@Configuration(proxyBeanMethods = false)
@Profile("conformance")
class ConformanceFixtures {

    /** A 1×1 transparent PNG. */
    private static final Content IMAGE = ImageContent.builder(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
            "image/png").build();
    /** A WAV header with no samples. */
    private static final Content AUDIO = AudioContent.builder(
            "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=", "audio/wav").build();
    private static final Content RESOURCE = EmbeddedResource.builder(
            new TextResourceContents("test://embedded-resource", "text/plain", "This is an embedded resource content.",
                    null)).build();

    static final List<McpSyncTool> FIXTURES = List.of(
            fixture("greet", "Says hello (sync only)", Map.of("name", Map.of("type", "string")),
                    arguments -> text("Hello, " + arguments.getOrDefault("name", "World") + "!", false)),
            fixture("test_simple_text", "Returns one text item", Map.of(),
                    arguments -> text("This is a simple text response for testing.", false)),
            fixture("test_error_handling", "Always fails as a tool (isError)", Map.of(),
                    arguments -> text("This tool intentionally returns an error for testing", true)),
            fixture("test_image_content", "Returns one image", Map.of(), arguments -> result(IMAGE)),
            fixture("test_audio_content", "Returns one sound", Map.of(), arguments -> result(AUDIO)),
            fixture("test_embedded_resource", "Returns one embedded text resource", Map.of(),
                    arguments -> result(RESOURCE)),
            fixture("test_multiple_content_types", "Returns text, an image and a resource", Map.of(),
                    arguments -> result(TextContent.builder("Multiple content types test:").build(), IMAGE,
                            RESOURCE)));

    @Bean
    @Primary
    McpSyncToolRepository conformanceTools(OperationTools operations) {
        return new McpSyncToolRepository() {
            @Override
            public ToolsPage list(McpRequestContext context, @Nullable String cursor) {
                List<Tool> all = new ArrayList<>(operations.list(context, cursor).tools());
                FIXTURES.forEach(tool -> all.add(tool.definition()));
                all.sort((a, b) -> a.name().compareTo(b.name()));
                return ToolsPage.of(all);
            }

            @Override
            public @Nullable McpSyncTool find(McpRequestContext context, String name) {
                return FIXTURES.stream().filter(tool -> tool.definition().name().equals(name)).findFirst()
                        .orElseGet(() -> operations.find(context, name));
            }
        };
    }

    private static McpSyncTool fixture(String name, String description, Map<String, Object> properties,
            Function<Map<String, Object>, CallToolResult> answer) {
        Tool tool = Tool.builder(name, Map.of("type", "object", "properties", properties)).description(description)
                .build();
        return McpSyncTool.of(tool, (context, request) -> McpSyncResponse.result(
                answer.apply(request.arguments() == null ? Map.of() : request.arguments())));
    }

    private static CallToolResult result(Content... content) {
        return CallToolResult.builder().content(List.of(content)).build();
    }

    private static CallToolResult text(String text, boolean isError) {
        return CallToolResult.builder().addContent(TextContent.builder(text).build()).isError(isError).build();
    }
}

package dev.opledger.bench.dbos;

import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * reference-tools over the MCP Java SDK's 2026-07-28 client, the revision and transport the node's
 * McpToolClient settles on with reference-tools: one shared stateless client, one POST per call,
 * the operationId and stepKey also as request {@code _meta} as the node sends them.
 */
public final class ReferenceTools {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final McpSyncClient client;

    public ReferenceTools(URI url) {
        var transport = HttpClientMcpTransport.builder(url.toString()).connectTimeout(TIMEOUT).build();
        this.client = McpClient.sync(transport)
                .clientInfo(Implementation.builder("opledger-dbos-peer", "1").build())
                .callTimeout(TIMEOUT)
                .roundTimeout(TIMEOUT)
                .build();
    }

    /** The tool's structured result; a tool error is an exception (the step, and so the workflow, fails). */
    public Map<String, Object> call(String tool, Map<String, Object> arguments) {
        Map<String, Object> meta = Map.of("dev.opledger/operationId", arguments.get("operationId"),
                "dev.opledger/stepKey", arguments.get("stepKey"));
        CallToolResult result = client.tool(tool).arguments(arguments).meta(meta).call();
        if (Boolean.TRUE.equals(result.isError()) || !(result.structuredContent() instanceof Map<?, ?> content)) {
            String text = result.content() == null ? "" : result.content().stream()
                    .filter(TextContent.class::isInstance).map(c -> ((TextContent) c).text())
                    .collect(Collectors.joining("\n"));
            throw new ToolRefused(tool + " refused: " + text);
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        content.forEach((key, value) -> copy.put(String.valueOf(key), value));
        return copy;
    }

    /** A tool answered with an error. */
    public static final class ToolRefused extends RuntimeException {
        ToolRefused(String message) {
            super(message);
        }
    }
}

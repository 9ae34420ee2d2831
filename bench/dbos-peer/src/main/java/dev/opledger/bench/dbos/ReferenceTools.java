package dev.opledger.bench.dbos;

import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.McpTransportRequest;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * reference-tools over the MCP Java SDK's 2026-07-28 client, the revision and transport the node's
 * McpToolClient settles on with reference-tools: one shared stateless client, one POST per call,
 * the operationId and stepKey also as request {@code _meta} as the node sends them.
 */
public final class ReferenceTools {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final McpClientTransport transport;
    private final McpSyncClient client;
    private final AtomicLong ids = new AtomicLong();

    public ReferenceTools(URI url) {
        this.transport = HttpClientMcpTransport.builder(url.toString()).connectTimeout(TIMEOUT).build();
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

    /**
     * The same call in the shape the node's McpToolClient sends it (its TaskRequests): a JSON-RPC
     * request through the transport whose {@code _meta} carries the revision's per-request fields,
     * the tasks extension declared in the client's capabilities, and a trace context. Only the
     * tool server's warm-up uses it ({@link ToolsWarmup}), so that the server's code for the node's
     * requests is compiled too; the answer is not read beyond its being one.
     */
    void callAsTheNode(String tool, Map<String, Object> arguments) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("traceparent", "00-" + UUID.randomUUID().toString().replace("-", "") + "-"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16) + "-01");
        meta.put("dev.opledger/operationId", arguments.get("operationId"));
        meta.put("dev.opledger/stepKey", arguments.get("stepKey"));
        meta.put("io.modelcontextprotocol/protocolVersion", McpSchema.LATEST_PROTOCOL_VERSION);
        meta.put("io.modelcontextprotocol/clientInfo", Map.of("name", "opledger", "version", "warm-up"));
        meta.put("io.modelcontextprotocol/clientCapabilities",
                Map.of("extensions", Map.of("io.modelcontextprotocol/tasks", Map.of())));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("name", tool);
        params.put("arguments", arguments);
        params.put("_meta", meta);
        var message = new JsonRpc.JSONRPCRequest("2.0", "tools/call", ids.incrementAndGet(), params);
        var request = McpTransportRequest.builder(message, McpSchema.LATEST_PROTOCOL_VERSION).name(tool)
                .roundTimeout(TIMEOUT).build();
        var response = transport.exchange(request).filter(JsonRpc.JSONRPCResponse.class::isInstance)
                .cast(JsonRpc.JSONRPCResponse.class).blockLast(TIMEOUT);
        if (response == null || response.error() != null) {
            throw new ToolRefused(tool + " answered " + (response == null ? "nothing" : response.error()));
        }
    }

    /** A tool answered with an error. */
    public static final class ToolRefused extends RuntimeException {
        ToolRefused(String message) {
            super(message);
        }
    }
}

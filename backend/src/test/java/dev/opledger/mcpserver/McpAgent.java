package dev.opledger.mcpserver;

import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.modern.client.transport.McpTransportRequest;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An agent against the node's MCP server with the SDK's own 2026-07-28 client transport and a
 * bearer token: {@link #client()} is the SDK's client (which does not know the tasks extension);
 * {@link #request} sends one JSON-RPC request through the same transport with the per-request
 * {@code _meta} the revision requires, declaring the tasks extension where asked.
 */
public final class McpAgent {

    public static final String TASKS = "io.modelcontextprotocol/tasks";

    private final HttpClientMcpTransport transport;
    private final AtomicLong ids = new AtomicLong();

    public McpAgent(int port, String token) {
        this.transport = HttpClientMcpTransport.builder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                .requestCustomizer(McpHttpRequestCustomizer.fromSync(
                        (request, headers, context) -> headers.set("Authorization", "Bearer " + token)))
                .build();
    }

    public McpSyncClient client() {
        return McpClient.sync(transport)
                .clientInfo(Implementation.builder("opledger-test-agent", "1").build())
                .callTimeout(Duration.ofSeconds(20))
                .build();
    }

    /** One request; the response's result, or its error. */
    public JsonRpc.JSONRPCResponse request(String method, Map<String, Object> params, boolean declareTasks,
            String name) {
        Map<String, Object> withMeta = new LinkedHashMap<>(params);
        withMeta.put("_meta", Map.of(
                "io.modelcontextprotocol/protocolVersion", McpSchema.LATEST_PROTOCOL_VERSION,
                "io.modelcontextprotocol/clientInfo", Map.of("name", "opledger-test-agent", "version", "1"),
                "io.modelcontextprotocol/clientCapabilities",
                declareTasks ? Map.of("extensions", Map.of(TASKS, Map.of())) : Map.of()));
        return raw(method, withMeta, name);
    }

    /** One request whose params (with their {@code _meta}) are the caller's. */
    public JsonRpc.JSONRPCResponse raw(String method, Map<String, Object> params, String name) {
        var message = new JsonRpc.JSONRPCRequest("2.0", method, ids.incrementAndGet(), params);
        var request = McpTransportRequest.builder(message, McpSchema.LATEST_PROTOCOL_VERSION)
                .name(name)
                .roundTimeout(Duration.ofSeconds(20))
                .build();
        return transport.exchange(request)
                .filter(JsonRpc.JSONRPCResponse.class::isInstance)
                .cast(JsonRpc.JSONRPCResponse.class)
                .blockLast(Duration.ofSeconds(30));
    }

    public JsonRpc.JSONRPCResponse callTool(String tool, Map<String, Object> arguments, boolean declareTasks) {
        return request("tools/call", Map.of("name", tool, "arguments", arguments), declareTasks, tool);
    }

    public JsonRpc.JSONRPCResponse getTask(String taskId) {
        return request("tasks/get", Map.of("taskId", taskId), true, taskId);
    }

    @SuppressWarnings("unchecked")
    /** A valid {@code checkout} tool call's arguments (see {@code testing.Checkout}). */
    public static Map<String, Object> checkout(String operationId, int quantity) {
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("operationId", operationId);
        arguments.put("sku", "SKU-ESPRESSO");
        arguments.put("quantity", quantity);
        arguments.put("amount", 49.90);
        arguments.put("currency", "EUR");
        arguments.put("recipient", "ann@example.com");
        return arguments;
    }

    public static Map<String, Object> result(JsonRpc.JSONRPCResponse response) {
        if (response.error() != null) {
            throw new AssertionError("expected a result, got error " + response.error());
        }
        return (Map<String, Object>) response.result();
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> errorData(JsonRpc.JSONRPCResponse response) {
        if (response.error() == null) {
            throw new AssertionError("expected an error, got result " + response.result());
        }
        return (Map<String, Object>) response.error().data();
    }
}

package dev.opledger.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The MCP load driver against a fake {@code /mcp}: what it sends, and what it counts. */
class McpTaskLoadTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private FakeMcp mcp;

    @AfterEach
    void stop() {
        if (mcp != null) {
            mcp.close();
        }
    }

    @Test
    void sendsTaskAugmentedCallsWithAFreshOperationIdEachAndCountsTheCreateTaskResults() throws Exception {
        mcp = FakeMcp.start(true);
        var load = new McpTaskLoad(mcp.uri(), 2, false, subject -> "token-" + subject);

        LoadResult result = load.run(Duration.ofMillis(50), () -> { }, Duration.ofMillis(300));

        assertThat(result.unexpected()).isZero();
        assertThat(result.claims()).isPositive().isEqualTo(result.requests());
        assertThat(mcp.calls).hasSizeGreaterThanOrEqualTo((int) result.requests());
        // a fresh operationId per call: as many distinct ones as calls
        assertThat(Set.copyOf(mcp.calls.stream().map(call -> call.operationId).toList())).hasSize(mcp.calls.size());
        Call first = mcp.calls.getFirst();
        assertThat(first.authorization).startsWith("Bearer token-mcp-load-");
        assertThat(first.methodHeader).isEqualTo("tools/call");
        assertThat(first.nameHeader).isEqualTo("checkout");
        assertThat(first.protocolHeader).isEqualTo("2026-07-28");
        assertThat(first.declaresTasks).isTrue();
        assertThat(first.arguments).containsEntry("sku", "SKU-ESPRESSO").containsEntry("currency", "EUR")
                .containsKeys("amount", "quantity", "recipient", "operationId");
    }

    @Test
    void duplicatesRepeatTheirOperationsAndExpectTheSameTask() throws Exception {
        mcp = FakeMcp.start(true);
        var load = new McpTaskLoad(mcp.uri(), 2, true, subject -> "token-" + subject);
        int created = mcp.calls.size();

        LoadResult result = load.run(Duration.ofMillis(50), () -> { }, Duration.ofMillis(300));

        assertThat(created).isEqualTo(2 * McpTaskLoad.DUPLICATE_KEYS);
        assertThat(result.unexpected()).isZero();
        assertThat(result.claims()).isPositive();
        // no operationId beyond the ones created first
        assertThat(Set.copyOf(mcp.calls.stream().map(call -> call.operationId).toList())).hasSize(created);
    }

    @Test
    void aRepeatAnsweredWithAnotherTaskIsUnexpected() throws Exception {
        mcp = FakeMcp.start(false); // a new task for every call, as a server without idempotency would
        var load = new McpTaskLoad(mcp.uri(), 1, true, subject -> "token-" + subject);

        LoadResult result = load.run(Duration.ZERO, () -> { }, Duration.ofMillis(200));

        assertThat(result.claims()).isZero();
        assertThat(result.unexpected()).isPositive().isEqualTo(result.requests());
    }

    @Test
    void aJsonRpcErrorOrAnOrdinaryToolResultIsNoTask() {
        var error = JSON.convertValue(Map.of("jsonrpc", "2.0", "id", 1,
                "error", Map.of("code", -32602, "message", "key reuse")),
                io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse.class);
        var complete = JSON.convertValue(Map.of("jsonrpc", "2.0", "id", 1,
                "result", Map.of("resultType", "complete", "content", List.of())),
                io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse.class);

        assertThat(McpTaskLoad.answer(error)).isInstanceOf(McpTaskLoad.Answer.Other.class);
        assertThat(McpTaskLoad.answer(complete)).isInstanceOf(McpTaskLoad.Answer.Other.class);
        assertThat(McpTaskLoad.answer(null)).isInstanceOf(McpTaskLoad.Answer.Other.class);
    }

    record Call(String authorization, String methodHeader, String nameHeader, String protocolHeader,
            boolean declaresTasks, String operationId, Map<String, Object> arguments) {
    }

    /** Answers every {@code tools/call} with a CreateTaskResult: the same task per operationId when {@code idempotent}. */
    static final class FakeMcp implements AutoCloseable {

        final List<Call> calls = new CopyOnWriteArrayList<>();
        private final Map<String, String> tasks = new ConcurrentHashMap<>();
        private final HttpServer server;
        private final boolean idempotent;

        private FakeMcp(HttpServer server, boolean idempotent) {
            this.server = server;
            this.idempotent = idempotent;
        }

        static FakeMcp start(boolean idempotent) throws IOException {
            var mcp = new FakeMcp(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0),
                    idempotent);
            mcp.server.createContext("/mcp", mcp::handle);
            mcp.server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            mcp.server.start();
            return mcp;
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }

        @SuppressWarnings("unchecked")
        private void handle(HttpExchange exchange) throws IOException {
            JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
            JsonNode params = request.get("params");
            String operationId = params.get("arguments").get("operationId").asString();
            calls.add(new Call(exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Mcp-Method"),
                    exchange.getRequestHeaders().getFirst("Mcp-Name"),
                    exchange.getRequestHeaders().getFirst("MCP-Protocol-Version"),
                    params.path("_meta").path("io.modelcontextprotocol/clientCapabilities").path("extensions")
                            .has(McpTaskLoad.TASKS),
                    operationId, JSON.convertValue(params.get("arguments"), Map.class)));
            String taskId = idempotent ? tasks.computeIfAbsent(operationId, key -> UUID.randomUUID().toString())
                    : UUID.randomUUID().toString();
            byte[] body = JSON.writeValueAsBytes(Map.of("jsonrpc", "2.0", "id", request.get("id").asLong(),
                    "result", Map.of("resultType", "task", "taskId", taskId, "status", "working",
                            "createdAt", "2026-12-01T00:00:00Z", "lastUpdatedAt", "2026-12-01T00:00:00Z",
                            "pollIntervalMs", 1000)));
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}

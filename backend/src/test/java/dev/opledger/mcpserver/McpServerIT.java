package dev.opledger.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.LifecycleService;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.internal.OperationWorker;
import dev.opledger.graph.internal.WorkerProperties;
import dev.opledger.operation.Command;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerTables;
import dev.opledger.testing.RawHttp;
import dev.opledger.testing.TestTokens;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.OpledgerApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The node's MCP server against the SDK's own client transport over HTTP, on real PostgreSQL:
 * tools, calls without and with the tasks extension, and refusals, asserted on the JSON-RPC
 * replies and on the committed rows.
 */
@NodeIntegrationTest
class McpServerIT {

    private static final String KEY_REUSE = "https://opledger.dev/problems/key-reuse";

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    dev.opledger.claim.LedgerService ledger;

    String subject;
    McpAgent agent;
    String operationId;
    private final List<OperationWorker> workers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        subject = "agent-" + UUID.randomUUID();
        agent = new McpAgent(port, TestTokens.forSubject(subject));
        operationId = UUID.randomUUID().toString();
    }

    @AfterEach
    void stopWorkers() {
        workers.forEach(OperationWorker::stop);
    }

    private long count(String sql, Object... args) {
        return jdbc.queryForObject(sql, Long.class, args);
    }

    @Test
    void listsEveryOperationTypeAsAToolThatRequiresAnOperationId() {
        List<Tool> tools = agent.client().listTools().list().tools();

        Tool checkout = tools.stream().filter(tool -> tool.name().equals("checkout")).findFirst().orElseThrow();
        assertThat(checkout.inputSchema().get("required")).asList().contains("operationId", "sku", "quantity");
        assertThat(checkout.inputSchema().get("properties")).asInstanceOf(
                org.assertj.core.api.InstanceOfAssertFactories.MAP).containsKeys("operationId", "sku", "amount");
    }

    /**
     * The conformance run's resources, prompts and completion (ConformanceFeatures, profile
     * conformance) are not in a production node: it declares tools and the tasks extension only,
     * and the other methods do not exist.
     */
    @Test
    void aProductionNodeDeclaresToolsAndTasksButNoResourcesPromptsOrCompletions() {
        @SuppressWarnings("unchecked")
        Map<String, Object> capabilities = (Map<String, Object>) McpAgent.result(
                agent.request("server/discover", Map.of(), false, null)).get("capabilities");

        assertThat(capabilities).containsKey("tools").doesNotContainKeys("resources", "prompts", "completions");
        assertThat(capabilities.get("extensions")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsKey(McpAgent.TASKS);
        assertThat(agent.request("resources/list", Map.of(), false, null).error().code()).isEqualTo(-32601);
        assertThat(agent.request("prompts/list", Map.of(), false, null).error().code()).isEqualTo(-32601);
        assertThat(agent.request("completion/complete", Map.of("ref",
                Map.of("type", "ref/prompt", "name", "test_prompt_with_arguments"), "argument",
                Map.of("name", "arg1", "value", "p")), false, null).error().code()).isEqualTo(-32601);
        assertThat(agent.client().listTools().list().tools()).extracting(Tool::name)
                .doesNotContain("test_tool_with_progress", "test_simple_text");
    }

    @Test
    void aCallWithoutTasksAnswersWithTheOperationAndARepeatReadsTheSameOne() {
        var first = agent.client().tool("checkout").arguments(McpAgent.checkout(operationId, 1)).call();
        var again = agent.client().tool("checkout").arguments(McpAgent.checkout(operationId, 1)).call();

        @SuppressWarnings("unchecked")
        var structured = (Map<String, Object>) first.structuredContent();
        String expectedHash = Command.parse(Checkout.command(1).getBytes(StandardCharsets.UTF_8)).payloadHash().hex();
        assertThat(first.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(structured).containsEntry("operationId", operationId).containsEntry("status", "ACCEPTED")
                .containsEntry("type", "checkout").containsEntry("payloadHash", expectedHash);
        assertThat(again.structuredContent()).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("operationId", operationId).containsEntry("payloadHash", expectedHash);
        assertThat(count("SELECT count(*) FROM operation WHERE operation_id = ?::uuid", operationId)).isEqualTo(1);
        assertThat(jdbc.queryForList("SELECT a.outcome || '/' || a.channel FROM operation_attempt a JOIN operation o "
                + "ON o.id = a.operation_ref WHERE o.operation_id = ?::uuid ORDER BY a.id", String.class, operationId))
                .containsExactly("CLAIMED/MCP", "REPLAYED/MCP");
        assertThat(count("SELECT count(*) FROM mcp_task WHERE operation_id = ?::uuid", operationId))
                .as("no task without the extension").isZero();
    }

    @Test
    void aRestRetryOfAnOperationCreatedOverMcpIsAReplay() {
        agent.client().tool("checkout").arguments(McpAgent.checkout(operationId, 1)).call();

        var rest = ApiClient.onPort(port).submit(TestTokens.forSubject(subject), operationId, Checkout.command(1));

        assertThat(rest.statusCode()).isEqualTo(200);
        assertThat(rest.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(jdbc.queryForList("SELECT a.outcome || '/' || a.channel FROM operation_attempt a JOIN operation o "
                + "ON o.id = a.operation_ref WHERE o.operation_id = ?::uuid ORDER BY a.id", String.class, operationId))
                .containsExactly("CLAIMED/MCP", "REPLAYED/REST");
        // what the console's operation page shows support (the façade is role-checked)
        var context = org.springframework.security.core.context.SecurityContextHolder.getContext();
        context.setAuthentication(org.springframework.security.authentication.UsernamePasswordAuthenticationToken
                .authenticated("support", null,
                        org.springframework.security.core.authority.AuthorityUtils.createAuthorityList("ROLE_SUPPORT")));
        try {
            assertThat(ledger.operation(dev.opledger.operation.OperationId.parse(operationId)).orElseThrow().attempts())
                    .extracting(attempt -> attempt.channel().name()).containsExactly("MCP", "REST");
        } finally {
            org.springframework.security.core.context.SecurityContextHolder.clearContext();
        }
    }

    @Test
    void anOperationCreatedOverRestIsAReplayOverMcp() {
        ApiClient.onPort(port).submit(TestTokens.forSubject(subject), operationId, Checkout.command(2));

        var over = agent.callTool("checkout", McpAgent.checkout(operationId, 2), false);
        var other = agent.callTool("checkout", McpAgent.checkout(operationId, 3), false);

        assertThat(McpAgent.result(over)).containsEntry("isError", false);
        assertThat(McpAgent.errorData(other)).containsEntry("type", KEY_REUSE).containsEntry("operationId", operationId);
        assertThat(other.error().code()).isEqualTo(-32602);
        assertThat(jdbc.queryForList("SELECT c.channel FROM key_reuse_conflict c JOIN operation o "
                + "ON o.id = c.operation_ref WHERE o.operation_id = ?::uuid", String.class, operationId))
                .containsExactly("MCP");
    }

    @Test
    void badInputIsAJsonRpcErrorWithTheApisProblemTypeAndStoresNothing() {
        var tables = new LedgerTables(jdbc);
        Map<String, Long> before = tables.counts();
        Map<String, Object> noId = McpAgent.checkout(operationId, 1);
        noId.remove("operationId");
        Map<String, Object> notUuid = McpAgent.checkout("not-a-uuid", 1);
        Map<String, Object> numberId = McpAgent.checkout(operationId, 1);
        numberId.put("operationId", 42);
        Map<String, Object> wrong = McpAgent.checkout(operationId, 0);
        wrong.put("colour", "red");

        for (boolean tasks : new boolean[] {false, true}) {
            assertThat(McpAgent.errorData(agent.callTool("checkout", noId, tasks)))
                    .containsEntry("type", "https://opledger.dev/problems/idempotency-key");
            assertThat(McpAgent.errorData(agent.callTool("checkout", notUuid, tasks)))
                    .containsEntry("type", "https://opledger.dev/problems/idempotency-key");
            assertThat(McpAgent.errorData(agent.callTool("checkout", numberId, tasks)))
                    .containsEntry("type", "https://opledger.dev/problems/idempotency-key");
            var invalid = agent.callTool("checkout", wrong, tasks);
            assertThat(invalid.error().code()).isEqualTo(-32602);
            assertThat(McpAgent.errorData(invalid))
                    .containsEntry("type", "https://opledger.dev/problems/invalid-arguments")
                    .containsEntry("operationId", operationId)
                    .containsKey("errors");
            assertThat(invalid.error().message()).contains("/quantity");
            var unknown = agent.callTool("no_such_tool", McpAgent.checkout(operationId, 1), tasks);
            assertThat(unknown.error()).isNotNull();
            assertThat(unknown.error().code()).isNotEqualTo(-32603);
        }
        assertThat(tables.counts()).isEqualTo(before);
    }

    @Test
    void anUnauthenticatedRequestGets401BeforeMcp() {
        var tables = new LedgerTables(jdbc);
        Map<String, Long> before = tables.counts();
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}";

        var none = new RawHttp(port).send(new RawHttp.Request("POST", "/mcp")
                .header("Content-Type", "application/json").body(body));
        var forged = new RawHttp(port).send(new RawHttp.Request("POST", "/mcp")
                .header("Authorization", "Bearer not.a.token")
                .header("Content-Type", "application/json").body(body));

        assertThat(none.status()).isEqualTo(401);
        assertThat(none.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(forged.status()).isEqualTo(401);
        assertThat(tables.counts()).isEqualTo(before);
    }

    @Test
    void aRequestForAnotherHostOrFromAnotherOriginIsRefused() throws Exception {
        String token = TestTokens.forSubject(subject);
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

        int own = post("127.0.0.1:" + port, null, token, body);
        int rebound = post("attacker.example:" + port, null, token, body);
        int crossOrigin = post("127.0.0.1:" + port, "https://attacker.example", token, body);

        assertThat(own).isEqualTo(200);
        assertThat(rebound).isBetween(400, 499);
        assertThat(crossOrigin).isBetween(400, 499);
    }

    /** A POST with exactly the Host (and Origin) given, which java.net.http does not allow setting. */
    private int post(String host, String origin, String token, String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (var socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            String head = "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\n"
                    + (origin == null ? "" : "Origin: " + origin + "\r\n")
                    + "Authorization: Bearer " + token + "\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json, text/event-stream\r\nMcp-Method: server/discover\r\n"
                    + "Mcp-Protocol-Version: 2026-07-28\r\n"
                    + "Connection: close\r\nContent-Length: " + bytes.length + "\r\n\r\n";
            var out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            String statusLine = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(statusLine.substring(9, 12));
        }
    }

    @Test
    void aCallWithTasksCreatesOneDurableTaskAndARetryFindsIt() {
        var created = McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true));
        String taskId = (String) created.get("taskId");
        // the reply was lost: the agent calls again with the same operationId
        var retried = McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true));

        assertThat(created).containsEntry("resultType", "task").containsEntry("status", "working")
                .containsKeys("createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs");
        assertThat(taskId).hasSizeGreaterThanOrEqualTo(43);
        assertThat(retried).containsEntry("taskId", taskId);
        assertThat(count("SELECT count(*) FROM mcp_task WHERE task_id = ? AND subject_id = ?", taskId, subject))
                .isEqualTo(1);
        assertThat(count("SELECT count(*) FROM operation WHERE operation_id = ?::uuid", operationId)).isEqualTo(1);

        var got = McpAgent.result(agent.getTask(taskId));
        assertThat(got).containsEntry("resultType", "complete").containsEntry("taskId", taskId)
                .containsEntry("status", "working").doesNotContainKey("result");

        var reused = agent.callTool("checkout", McpAgent.checkout(operationId, 5), true);
        assertThat(McpAgent.errorData(reused)).containsEntry("type", KEY_REUSE);
        assertThat(count("SELECT count(*) FROM mcp_task WHERE subject_id = ?", subject)).isEqualTo(1);
    }

    @Test
    void anotherSubjectsTaskIsNotFound() {
        String taskId = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true))
                .get("taskId");
        var other = new McpAgent(port, TestTokens.forSubject("other-" + UUID.randomUUID()));

        var theirs = other.getTask(taskId);
        var invented = agent.getTask("no-such-task");

        assertThat(theirs.error()).isNotNull();
        assertThat(theirs.error().code()).isEqualTo(-32602);
        assertThat(invented.error().code()).isEqualTo(-32602);
        assertThat(theirs.error().message()).isEqualTo(invented.error().message());
    }

    @Test
    void tasksMethodsNeedTheExtension() {
        String taskId = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true))
                .get("taskId");

        var undeclared = agent.request("tasks/get", Map.of("taskId", taskId), false, taskId);
        var undeclaredCancel = agent.request("tasks/cancel", Map.of("taskId", taskId), false, taskId);
        var update = agent.request("tasks/update", Map.of("taskId", taskId, "inputResponses", Map.of()), true, taskId);

        assertThat(undeclared.error().code()).isEqualTo(-32021);
        assertThat(undeclaredCancel.error().code()).isEqualTo(-32021);
        assertThat(McpAgent.result(update)).containsEntry("resultType", "complete");
        assertThat(jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?::uuid", String.class,
                operationId)).isEqualTo("ACCEPTED");
    }

    @Test
    void tasksCancelIsAnEmptyAcknowledgementForEveryRepeatAndTheTaskEndsCancelled() {
        String taskId = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true))
                .get("taskId");
        var other = new McpAgent(port, TestTokens.forSubject("other-" + UUID.randomUUID()));

        var theirs = other.request("tasks/cancel", Map.of("taskId", taskId), true, taskId);
        assertThat(theirs.error().code()).isEqualTo(-32602);
        assertThat(theirs.error().message()).isEqualTo(agent.request("tasks/cancel", Map.of("taskId", "no-such-task"),
                true, "no-such-task").error().message());
        assertThat(count("SELECT count(*) FROM operation_cancel c JOIN operation o ON o.id = c.operation_ref "
                + "WHERE o.operation_id = ?::uuid", operationId)).as("another subject changed nothing").isZero();

        var first = McpAgent.result(agent.request("tasks/cancel", Map.of("taskId", taskId), true, taskId));
        var repeat = McpAgent.result(agent.request("tasks/cancel", Map.of("taskId", taskId), true, taskId));

        // the spec's empty acknowledgement: resultType only (and the SDK's _meta, which every result carries)
        assertThat(first).containsEntry("resultType", "complete").containsOnlyKeys("resultType", "_meta")
                .isEqualTo(repeat);
        assertThat(McpAgent.result(agent.getTask(taskId))).containsEntry("status", "cancelled");
        assertThat(jdbc.queryForMap("SELECT c.channel, c.requested_by, c.resolution FROM operation_cancel c "
                + "JOIN operation o ON o.id = c.operation_ref WHERE o.operation_id = ?::uuid", operationId))
                .isEqualTo(Map.of("channel", "MCP", "requested_by", "subject:" + subject, "resolution", "STOPPED"));
        assertThat(count("SELECT count(*) FROM outbox_event WHERE operation_id = ?::uuid AND type = 'CancelRequested'",
                operationId)).isEqualTo(1);
    }

    @Test
    void aRunningTasksCancelLeavesItWorkingWithAStatusMessageUntilTheWorkerMeetsIt() {
        String taskId = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true))
                .get("taskId");
        var id = dev.opledger.operation.OperationId.parse(operationId);
        lifecycle.lease("mcp-it-node", 1000, Duration.ofMinutes(1)).stream()
                .filter(leased -> leased.operationId().equals(id)).findFirst().orElseThrow();

        assertThat(McpAgent.result(agent.request("tasks/cancel", Map.of("taskId", taskId), true, taskId)))
                .containsEntry("resultType", "complete");

        assertThat(McpAgent.result(agent.getTask(taskId))).containsEntry("status", "working")
                .satisfies(task -> assertThat((String) task.get("statusMessage"))
                        .endsWith("A cancel was requested: the run stops at its next step boundary, before any further "
                                + "effect."));
    }

    @Test
    void thirtyTwoConcurrentIdenticalCallsMakeOneTask() throws Exception {
        int calls = 32;
        var start = new CountDownLatch(1);
        Set<String> taskIds = ConcurrentHashMap.newKeySet();
        try (var pool = Executors.newFixedThreadPool(calls)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    var reply = McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true));
                    taskIds.add((String) reply.get("taskId"));
                    return null;
                }));
            }
            start.countDown();
            for (var future : futures) {
                future.get();
            }
        }

        assertThat(taskIds).hasSize(1);
        assertThat(count("SELECT count(*) FROM mcp_task WHERE subject_id = ?", subject)).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM operation WHERE operation_id = ?::uuid", operationId)).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM operation_attempt a JOIN operation o ON o.id = a.operation_ref "
                + "WHERE o.operation_id = ?::uuid", operationId)).isEqualTo(calls);
    }

    @Test
    void aTaskCreatedOnOneNodeIsFoundByAFreshNode() {
        String taskId = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true))
                .get("taskId");

        // another node, started after the task was created: it holds nothing of it in memory
        try (var other = new SpringApplicationBuilder(OpledgerApplication.class)
                .profiles("test")
                .initializers(new TestDatabaseInitializer())
                .properties("server.port=0", "spring.datasource.hikari.maximum-pool-size=2")
                .run()) {
            int otherPort = ((ServletWebServerApplicationContext) other).getWebServer().getPort();
            var there = new McpAgent(otherPort, TestTokens.forSubject(subject));

            var got = McpAgent.result(there.getTask(taskId));
            var retried = McpAgent.result(there.callTool("checkout", McpAgent.checkout(operationId, 1), true));

            assertThat(got).containsEntry("taskId", taskId).containsEntry("status", "working");
            assertThat(retried).containsEntry("taskId", taskId);
        }
    }

    @Test
    void aTaskCompletesWithTheOperationsRepresentation() {
        String taskId = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true))
                .get("taskId");
        var worker = new OperationWorker("mcp-it", lifecycle, (operation, lease) -> new ExecutionOutcome.Succeeded(),
                new WorkerProperties(true, 2, Duration.ofSeconds(2), Duration.ofMillis(400), Duration.ofMillis(50)));
        workers.add(worker);
        worker.start();

        Map<String, Object> done = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> McpAgent.result(agent.getTask(taskId)), task -> "completed".equals(task.get("status")));

        @SuppressWarnings("unchecked")
        var result = (Map<String, Object>) done.get("result");
        assertThat(result).containsEntry("isError", false);
        assertThat(result.get("structuredContent")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("operationId", operationId).containsEntry("status", "SUCCEEDED");
    }

    @Test
    void aRunThatBreaksDownIsAFailedTaskWithAJsonRpcErrorAndARefusalACompletedOneWithIsError() {
        String brokenId = operationId;
        String refusedId = UUID.randomUUID().toString();
        String broken = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(brokenId, 1), true)).get("taskId");
        String refused = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(refusedId, 1), true))
                .get("taskId");
        // a type whose run throws for one operation (a crash inside the run) and refuses the other
        var worker = new OperationWorker("mcp-it", lifecycle, (operation, lease) -> {
            if (operation.operationId().toString().equals(brokenId)) {
                throw new IllegalStateException("internal detail that must not reach the client");
            }
            return new ExecutionOutcome.Failed("the tool refused");
        }, new WorkerProperties(true, 2, Duration.ofSeconds(2), Duration.ofMillis(400), Duration.ofMillis(50)));
        workers.add(worker);
        worker.start();

        Map<String, Object> failed = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> McpAgent.result(agent.getTask(broken)), task -> !"working".equals(task.get("status")));
        Map<String, Object> completed = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> McpAgent.result(agent.getTask(refused)), task -> !"working".equals(task.get("status")));

        assertThat(failed).containsEntry("status", "failed").doesNotContainKey("result")
                .containsEntry("error", Map.of("code", -32603,
                        "message", "The operation's run broke down on the node; nothing more is known to the client."));
        assertThat(failed.toString()).doesNotContain("internal detail", "IllegalStateException");
        assertThat(completed).containsEntry("status", "completed").doesNotContainKey("error");
        assertThat(completed.get("result")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("isError", true);
        assertThat(jdbc.queryForMap("SELECT status, failure_kind FROM operation WHERE operation_id = ?::uuid", brokenId))
                .isEqualTo(Map.of("status", "FAILED", "failure_kind", "BROKE_DOWN"));
        assertThat(jdbc.queryForMap("SELECT status, failure_kind FROM operation WHERE operation_id = ?::uuid",
                refusedId)).isEqualTo(Map.of("status", "FAILED", "failure_kind", "OUTCOME"));
        var api = ApiClient.onPort(port);
        String token = TestTokens.forSubject(subject);
        assertThat(ApiClient.json(api.get(token, "/v1/operations/" + brokenId)).path("failure").asText())
                .isEqualTo("BROKE_DOWN");
        assertThat(ApiClient.json(api.get(token, "/v1/operations/" + refusedId)).path("failure").asText())
                .isEqualTo("OUTCOME");
    }
}

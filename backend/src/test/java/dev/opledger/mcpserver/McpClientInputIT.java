package dev.opledger.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.claim.ClientInput;
import dev.opledger.claim.LifecycleService;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.internal.OperationWorker;
import dev.opledger.graph.internal.WorkerProperties;
import dev.opledger.mcptasks.TasksExtension;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.testing.TestTokens;
import io.modelcontextprotocol.modern.JsonRpc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Input from the client for an MCP task, end to end over the node's MCP transport on real
 * PostgreSQL: a run asks (ExecutionOutcome.AwaitingInput), the operation parks AWAITING_INPUT
 * with its requests in {@code operation_input}, {@code tasks/get} shows {@code input_required}
 * with the {@code inputRequests}, {@code tasks/update} records the answer once and resumes the run.
 * The runs are a stub executor's (a type that asks to confirm, then succeeds saying what it got).
 */
@NodeIntegrationTest
class McpClientInputIT {

    private static final String CONFIRM = "{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
            + "\"message\":\"Go on?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"confirm\":"
            + "{\"type\":\"boolean\"},\"note\":{\"type\":\"string\"}},\"required\":[\"confirm\"]}}}";

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    LifecycleService lifecycle;

    String subject;
    McpAgent agent;
    String operationId;
    final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
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

    /** A worker whose runs ask to confirm until the answer is there, then succeed with it. */
    private OperationWorker worker(String node, LifecycleService on) {
        return worker(node, on, List.of("confirm"));
    }

    /** A worker whose runs ask {@code keys} (each a confirmation) until all are answered, then succeed with the answers. */
    private OperationWorker worker(String node, LifecycleService on, List<String> keys) {
        var worker = new OperationWorker(node, on, (operation, lease) -> {
            runs.computeIfAbsent(operation.operationId().toString(), id -> new AtomicInteger()).incrementAndGet();
            Map<String, String> answers = new LinkedHashMap<>();
            on.inputs(operation.operationId()).stream().filter(input -> !input.open())
                    .forEach(input -> answers.put(input.key(), input.response()));
            Map<String, String> asks = new LinkedHashMap<>();
            keys.stream().filter(key -> !answers.containsKey(key)).forEach(key -> asks.put(key, CONFIRM));
            return asks.isEmpty() ? new ExecutionOutcome.Succeeded("The client said " + answers.get(keys.getFirst()))
                    : new ExecutionOutcome.AwaitingInput("asks to confirm", asks);
        }, new WorkerProperties(true, 2, Duration.ofSeconds(2), Duration.ofMillis(400), Duration.ofMillis(50)));
        workers.add(worker);
        worker.start();
        return worker;
    }

    private String awaitingTask() {
        String taskId = (String) McpAgent.result(agent.callTool("checkout", McpAgent.checkout(operationId, 1), true))
                .get("taskId");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> status(), "AWAITING_INPUT"::equals);
        return taskId;
    }

    private String status() {
        return jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?::uuid", String.class, operationId);
    }

    private JsonRpc.JSONRPCResponse update(McpAgent who, String taskId, Object inputResponses) {
        Map<String, Object> params = new HashMap<>();
        params.put("taskId", taskId);
        params.put("inputResponses", inputResponses);
        return who.request("tasks/update", params, true, taskId);
    }

    private static Map<String, Object> accept(Map<String, Object> content) {
        return Map.of("confirm", Map.of("action", "accept", "content", content));
    }

    private Map<String, Object> ledgerState() {
        return jdbc.queryForMap("""
                SELECT o.status, o.event_sequence, o.updated_at,
                       (SELECT count(*) FROM operation_input i WHERE i.operation_ref = o.id AND i.response IS NOT NULL) AS answered,
                       (SELECT count(*) FROM operation_transition t WHERE t.operation_ref = o.id) AS transitions
                FROM operation o WHERE o.operation_id = ?::uuid
                """, operationId);
    }

    @Test
    void aRunAsksTheClientAndTheAnswerThroughTasksUpdateResumesIt() {
        worker("input-it", lifecycle);
        String taskId = awaitingTask();

        var asked = McpAgent.result(agent.getTask(taskId));
        var rest = ApiClient.json(ApiClient.onPort(port).get(TestTokens.forSubject(subject), "/v1/operations/" + operationId));
        var ack = McpAgent.result(update(agent, taskId, accept(Map.of("confirm", true, "unasked", "dropped"))));
        Map<String, Object> done = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> McpAgent.result(agent.getTask(taskId)), task -> "completed".equals(task.get("status")));

        assertThat(asked).containsEntry("status", "input_required").containsEntry("resultType", "complete");
        assertThat(asked.get("inputRequests")).isEqualTo(Map.of("confirm", Map.of("method", "elicitation/create",
                "params", Map.of("mode", "form", "message", "Go on?", "requestedSchema", Map.of("type", "object",
                        "properties", Map.of("confirm", Map.of("type", "boolean"), "note", Map.of("type", "string")),
                        "required", List.of("confirm"))))));
        assertThat(rest.get("status").asText()).as("REST shows the status as it is").isEqualTo("AWAITING_INPUT");
        assertThat(ack).containsEntry("resultType", "complete").doesNotContainKeys("taskId", "status", "result", "error", "inputRequests");
        assertThat(done).doesNotContainKey("inputRequests");
        @SuppressWarnings("unchecked")
        var content = (List<Map<String, Object>>) ((Map<String, Object>) done.get("result")).get("content");
        assertThat((String) content.getFirst().get("text")).as("the run got the answer, without the field it did not ask")
                .contains("\"confirm\": true").doesNotContain("unasked");
        assertThat(runs.get(operationId)).hasValue(2);
        assertThat(jdbc.queryForList("SELECT coalesce(t.from_status, '') || '>' || t.to_status FROM operation_transition t JOIN operation o "
                + "ON o.id = t.operation_ref WHERE o.operation_id = ?::uuid ORDER BY t.id", String.class, operationId))
                .containsExactly(">ACCEPTED", "ACCEPTED>RUNNING", "RUNNING>AWAITING_INPUT", "AWAITING_INPUT>ACCEPTED",
                        "ACCEPTED>RUNNING", "RUNNING>SUCCEEDED");
        assertThat(jdbc.queryForList("SELECT e.type || ':' || e.status || ':' || coalesce(e.payload->>'inputKeys', '') "
                + "FROM outbox_event e JOIN operation o ON o.id = e.operation_ref WHERE o.operation_id = ?::uuid "
                + "AND e.type LIKE 'Input%' ORDER BY e.sequence", String.class, operationId))
                .containsExactly("InputRequested:AWAITING_INPUT:[\"confirm\"]", "InputProvided:ACCEPTED:[\"confirm\"]");
    }

    @Test
    void eightConcurrentIdenticalUpdatesAndARepeatGetTheSameAckAndResumeOnce() throws Exception {
        OperationWorker worker = worker("input-it", lifecycle);
        String taskId = awaitingTask();
        worker.stop(); // the resume is counted in the ledger first: no run takes it while the updates race

        int calls = 8;
        var start = new CountDownLatch(1);
        List<Future<JsonRpc.JSONRPCResponse>> answers = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(calls)) {
            for (int i = 0; i < calls; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return update(agent, taskId, accept(Map.of("confirm", true)));
                }));
            }
            start.countDown();
            for (var answer : answers) {
                assertThat(McpAgent.result(answer.get())).containsEntry("resultType", "complete").doesNotContainKeys("taskId", "status", "result", "error", "inputRequests");
            }
        }
        var repeat = McpAgent.result(update(agent, taskId, accept(Map.of("confirm", false))));
        var afterAll = ledgerState();
        worker("input-it-2", lifecycle);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(this::status, "SUCCEEDED"::equals);

        assertThat(repeat).as("a repeat, even with another answer, is acknowledged and ignored")
                .containsEntry("resultType", "complete").doesNotContainKeys("taskId", "status", "result", "error", "inputRequests");
        assertThat(afterAll).containsEntry("status", "ACCEPTED").containsEntry("answered", 1L);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM operation_transition t JOIN operation o ON o.id = t.operation_ref "
                + "WHERE o.operation_id = ?::uuid AND t.from_status = 'AWAITING_INPUT'", Long.class, operationId)).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event e JOIN operation o ON o.id = e.operation_ref "
                + "WHERE o.operation_id = ?::uuid AND e.type = 'InputProvided'", Long.class, operationId)).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT i.response->'content'->>'confirm' FROM operation_input i JOIN operation o "
                + "ON o.id = i.operation_ref WHERE o.operation_id = ?::uuid", String.class, operationId)).isEqualTo("true");
        assertThat(runs.get(operationId)).as("one run asked, one resumed").hasValue(2);
    }

    @Test
    void answersToTwoOpenRequestsAtOnceAreBothRecordedAndResumeOnce() throws Exception {
        OperationWorker worker = worker("input-it", lifecycle, List.of("first", "second"));
        String taskId = awaitingTask();
        worker.stop();
        var asked = McpAgent.result(agent.getTask(taskId));
        var start = new CountDownLatch(1);
        List<Future<JsonRpc.JSONRPCResponse>> answers = new ArrayList<>();
        try (var pool = Executors.newFixedThreadPool(4)) {
            for (String key : List.of("first", "second", "first", "second")) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return update(agent, taskId, Map.of(key, Map.of("action", "accept", "content", Map.of("confirm", true))));
                }));
            }
            start.countDown();
            for (var answer : answers) {
                assertThat(McpAgent.result(answer.get())).containsEntry("resultType", "complete");
            }
        }

        assertThat(asked.get("inputRequests")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsOnlyKeys("first", "second");
        assertThat(ledgerState()).containsEntry("status", "ACCEPTED").containsEntry("answered", 2L);
        assertThat(jdbc.queryForList("SELECT e.status || ':' || (e.payload->>'inputKeys') FROM outbox_event e JOIN operation o "
                + "ON o.id = e.operation_ref WHERE o.operation_id = ?::uuid AND e.type = 'InputProvided' ORDER BY e.sequence",
                String.class, operationId)).as("one answer each; the one that filled the last resumed")
                .hasSize(2).satisfiesExactly(first -> assertThat(first).startsWith("AWAITING_INPUT:"),
                        last -> assertThat(last).startsWith("ACCEPTED:"));
    }

    @Test
    void aPartialAnswerLeavesTheOtherRequestOpen() {
        OperationWorker worker = worker("input-it", lifecycle, List.of("first", "second"));
        String taskId = awaitingTask();
        worker.stop();

        update(agent, taskId, Map.of("first", Map.of("action", "decline")));
        var partial = McpAgent.result(agent.getTask(taskId));

        assertThat(partial).containsEntry("status", "input_required");
        assertThat(partial.get("inputRequests")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsOnlyKeys("second");
        assertThat(status()).isEqualTo("AWAITING_INPUT");
    }

    @Test
    void malformedResponsesAreJsonRpcErrorsAndChangeNothing() {
        worker("input-it", lifecycle).stop();
        worker("input-it", lifecycle);
        String taskId = awaitingTask();
        workers.forEach(OperationWorker::stop);
        var before = ledgerState();
        Map<String, Object> tooMany = new LinkedHashMap<>();
        for (int i = 0; i < 33; i++) {
            tooMany.put("k" + i, Map.of("action", "decline"));
        }
        Map<String, Object> nullValue = new HashMap<>();
        nullValue.put("confirm", null);
        List<Object> malformed = List.of(
                "confirm",                                                        // not an object
                List.of(Map.of("action", "accept")),                              // an array
                Map.of("confirm", "yes"),                                         // a value that is no result
                nullValue,
                Map.of("confirm", Map.of("action", "maybe")),                     // no such action
                Map.of("confirm", Map.of("action", "accept")),                    // accepted without content
                accept(Map.of("confirm", "true")),                                // a string for a boolean
                accept(Map.of("confirm", 1)),
                accept(Map.of("note", "no confirm")),                             // the required field missing
                accept(Map.of("confirm", true, "note", "x".repeat(20_000))),      // oversized
                Map.of("x".repeat(201), Map.of("action", "decline")),             // an oversized key
                tooMany);

        for (Object responses : malformed) {
            var refused = update(agent, taskId, responses);
            assertThat(refused.error()).as("refused: %s", String.valueOf(responses).substring(0,
                    Math.min(80, String.valueOf(responses).length()))).isNotNull();
            assertThat(refused.error().code()).isEqualTo(-32602);
        }
        var missing = agent.request("tasks/update", Map.of("taskId", taskId), true, taskId);
        var unknownKeyOnly = McpAgent.result(update(agent, taskId, Map.of("unknown-key", Map.of("ignored", true))));

        assertThat(missing.error().code()).isEqualTo(-32602);
        assertThat(unknownKeyOnly).as("a key that is not open is ignored (ext-tasks: SHOULD ignore)")
                .containsEntry("resultType", "complete").doesNotContainKeys("taskId", "status", "result", "error", "inputRequests");
        assertThat(ledgerState()).isEqualTo(before);
        assertThat(McpAgent.result(agent.getTask(taskId))).containsEntry("status", "input_required");
    }

    @Test
    void anotherSubjectsUpdateIsNotFoundAndChangesNothing() {
        worker("input-it", lifecycle);
        String taskId = awaitingTask();
        workers.forEach(OperationWorker::stop);
        var before = ledgerState();
        var stranger = new McpAgent(port, TestTokens.forSubject("other-" + UUID.randomUUID()));

        var refused = update(stranger, taskId, accept(Map.of("confirm", true)));
        var got = stranger.getTask(taskId);

        assertThat(refused.error().code()).isEqualTo(-32602);
        assertThat(refused.error().message()).isEqualTo(TasksExtension.NOT_FOUND);
        assertThat(got.error().message()).isEqualTo(TasksExtension.NOT_FOUND);
        assertThat(ledgerState()).isEqualTo(before);
    }

    @Test
    void aNodeStartedAfterTheRunParkedShowsTheRequestsAndTakesTheAnswer() {
        worker("input-it", lifecycle);
        String taskId = awaitingTask();
        var askedHere = McpAgent.result(agent.getTask(taskId));
        workers.forEach(OperationWorker::stop); // this node's worker is gone; nothing of the wait is in memory

        try (var other = new SpringApplicationBuilder(OpledgerApplication.class)
                .profiles("test")
                .initializers(new TestDatabaseInitializer())
                .properties("server.port=0", "spring.datasource.hikari.maximum-pool-size=3")
                .run()) {
            int otherPort = ((ServletWebServerApplicationContext) other).getWebServer().getPort();
            var there = new McpAgent(otherPort, TestTokens.forSubject(subject));

            var askedThere = McpAgent.result(there.getTask(taskId));
            var ack = McpAgent.result(update(there, taskId, accept(Map.of("confirm", true))));
            worker("input-it-other", other.getBean(LifecycleService.class));
            Map<String, Object> done = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                    .until(() -> McpAgent.result(there.getTask(taskId)), task -> "completed".equals(task.get("status")));

            assertThat(askedThere).containsEntry("status", "input_required")
                    .containsEntry("inputRequests", askedHere.get("inputRequests"));
            assertThat(ack).containsEntry("resultType", "complete").doesNotContainKeys("taskId", "status", "result", "error", "inputRequests");
            assertThat(done).containsEntry("taskId", taskId);
        } finally {
            workers.forEach(OperationWorker::stop);
        }
    }

    @Test
    void aCancelWhileItAwaitsInputCancelsAtOnce() {
        worker("input-it", lifecycle);
        String taskId = awaitingTask();

        var ack = McpAgent.result(agent.request("tasks/cancel", Map.of("taskId", taskId), true, taskId));
        var got = McpAgent.result(agent.getTask(taskId));
        var late = McpAgent.result(update(agent, taskId, accept(Map.of("confirm", true))));

        assertThat(ack).containsEntry("resultType", "complete").doesNotContainKeys("taskId", "status", "result", "error", "inputRequests");
        assertThat(got).containsEntry("status", "cancelled").doesNotContainKey("inputRequests");
        assertThat(late).as("an answer after the end is ignored").containsEntry("resultType", "complete").doesNotContainKeys("taskId", "status", "result", "error", "inputRequests");
        assertThat(status()).isEqualTo("CANCELLED");
        assertThat(ledgerState()).containsEntry("answered", 0L);
    }
}

package dev.opledger.tools.wrap;

import static dev.opledger.tools.McpClients.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolAnswer;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.internal.McpProperties;
import dev.opledger.mcp.internal.McpProtocol;
import dev.opledger.mcp.internal.McpToolClient;
import dev.opledger.tools.McpClients;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.TestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * wrap_gift, the long-running task tool, served with the tasks extension and called with the
 * node's own MCP client (its task-augmented call and the task methods): the task is there before
 * the call is answered, the wrap is made once when it is due, a repeat with the key finds the
 * task, a cancelled task makes no wrap.
 */
class WrapGiftTaskIT {

    private static final ToolRef WRAP = new ToolRef("reference", "wrap_gift");
    /** The server's default wrap time (3 s) and then some. */
    private static final Duration DUE = Duration.ofSeconds(15);

    private final ReferenceToolsServer server = TestServer.get();
    private final McpToolClient client = new McpToolClient(new McpProperties(Map.of("reference",
            McpProperties.Server.http(server.url(), McpProtocol.MODERN, Duration.ofSeconds(10), Map.of()))));
    private final String operation = TestServer.newOperationId();

    @AfterEach
    void closeTheClient() {
        client.close();
        server.faults().clear();
    }

    private Map<String, Object> wrap(int quantity) {
        return step(operation, "wrap", "orderId", operation, "sku", "SKU-MUG", "quantity", quantity,
                "idempotencyKey", operation + ":wrap");
    }

    private String started(ToolAnswer answer) {
        assertThat(answer).isInstanceOf(ToolAnswer.TaskStarted.class);
        return ((ToolAnswer.TaskStarted) answer).task().taskId();
    }

    @Test
    void aCallAnswersWithATaskThatIsThereAtOnceAndMakesTheWrapOnceWhenDue() throws Exception {
        var answer = client.callAllowingTask(WRAP, wrap(2), null);

        String taskId = started(answer);
        assertThat(((ToolAnswer.TaskStarted) answer).task().pollInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(client.task(WRAP, taskId)).isInstanceOf(TaskState.Working.class);
        assertThat(server.effects().count("wrap_gift", operation, "wrap")).isZero();

        await("task " + taskId + " completed").atMost(DUE).pollInterval(Duration.ofMillis(500))
                .until(() -> client.task(WRAP, taskId) instanceof TaskState.Completed);

        var completed = (TaskState.Completed) client.task(WRAP, taskId);
        assertThat(completed.reply().error()).isFalse();
        assertThat(completed.reply().content()).containsEntry("quantity", 2).containsKey("wrapId");
        assertThat(server.effects().ofOperation(operation)).singleElement()
                .satisfies(effect -> assertThat(effect.resultId()).isEqualTo(completed.reply().content().get("wrapId")));
        assertThat(server.tasks().find(taskId).orElseThrow().polls()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aRepeatWithTheSameKeyFindsTheCallsTaskAndOtherArgumentsUnderItAreRefused() throws Exception {
        String first = started(client.callAllowingTask(WRAP, wrap(1), null));

        String repeat = started(client.callAllowingTask(WRAP, wrap(1), null));
        var other = client.callAllowingTask(WRAP, wrap(3), null);

        assertThat(repeat).isEqualTo(first);
        assertThat(other).isInstanceOfSatisfying(ToolAnswer.Replied.class, replied -> {
            assertThat(replied.reply().error()).isTrue();
            assertThat(replied.reply().content()).containsEntry("error", "IDEMPOTENCY_KEY_REUSED");
        });
        assertThat(server.tasks().ofStep(operation, "wrap")).hasSize(1);
    }

    @Test
    void concurrentCallsWithOneKeyMakeOneTask() throws Exception {
        List<Future<ToolAnswer>> calls = new ArrayList<>();
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                calls.add(callers.submit(() -> client.callAllowingTask(WRAP, wrap(1), null)));
            }
        }
        Set<String> taskIds = new HashSet<>();
        for (Future<ToolAnswer> call : calls) {
            taskIds.add(started(call.get()));
        }

        assertThat(taskIds).hasSize(1);
        assertThat(server.tasks().ofStep(operation, "wrap")).hasSize(1);
    }

    @Test
    void aCancelledTaskStaysCancelledAndMakesNoWrapWhenItWouldHaveBeenDue() throws Exception {
        String taskId = started(client.callAllowingTask(WRAP, wrap(1), null));

        assertThat(client.cancelTask(WRAP, taskId)).isEqualTo(TaskCancellation.ACKNOWLEDGED);
        assertThat(client.cancelTask(WRAP, taskId)).as("a repeat").isEqualTo(TaskCancellation.ACKNOWLEDGED);

        assertThat(client.task(WRAP, taskId)).isInstanceOf(TaskState.Cancelled.class);
        // past the 3 s the wrap takes, nothing was wrapped
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(500))
                .until(() -> server.effects().count("wrap_gift", operation, "wrap") == 0);
        assertThat(client.task(WRAP, taskId)).isInstanceOf(TaskState.Cancelled.class);
        assertThat(client.cancelTask(WRAP, "no-such-task")).isEqualTo(TaskCancellation.NOT_FOUND);
        assertThat(client.task(WRAP, "no-such-task")).isInstanceOf(TaskState.NotFound.class);
    }

    @Test
    void anInjectedFaultFailsTheTaskWithAJsonRpcErrorAndNoWrap() throws Exception {
        server.faults().inject("wrap_gift", "fail*1");
        String taskId = started(client.callAllowingTask(WRAP, wrap(1), null));

        await("task " + taskId + " failed").atMost(DUE).pollInterval(Duration.ofMillis(500))
                .until(() -> client.task(WRAP, taskId) instanceof TaskState.Failed);

        assertThat(client.task(WRAP, taskId)).isEqualTo(new TaskState.Failed(-32603, "injected fault: wrap_gift failed"));
        assertThat(server.effects().ofOperation(operation)).isEmpty();
    }

    @Test
    void aClientWithoutTheExtensionIsRefusedAndTheClassicRevisionDoesNotListTheTool() throws Exception {
        var refused = client.call(WRAP, wrap(1));

        assertThat(refused.error()).isTrue();
        assertThat(refused.text()).contains("-32021");
        assertThat(server.tasks().ofStep(operation, "wrap")).isEmpty();
        assertThat(McpClients.modern(server.url()).listTools().list().tools())
                .anySatisfy(tool -> assertThat(tool.name()).isEqualTo("wrap_gift"));
        try (var classic = McpClients.classic(server.url(), null)) {
            assertThat(classic.listTools().tools()).noneSatisfy(tool -> assertThat(tool.name()).isEqualTo("wrap_gift"));
        }
    }
}

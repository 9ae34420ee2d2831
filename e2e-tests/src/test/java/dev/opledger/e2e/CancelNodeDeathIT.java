package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.mcpserver.McpAgent;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestDatabase;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A cancel outlives the node that held the run: node A runs a checkout with a gift wrap (submitted
 * over REST, or as an agent's task-augmented {@code tools/call}; wrap_gift
 * answers with a downstream task that takes minutes, whose handle A stores and polls) and stalls
 * (SIGSTOP) before it could see a cancel; the subject cancels through node B (REST: 202, pending;
 * MCP: {@code tasks/cancel}, acknowledged); A is then SIGKILLed, never having acknowledged it. B's worker takes the lease over when A's
 * expires, finds the cancel pending, passes it on to the downstream task ({@code tasks/cancel} of
 * the stored handle, no second {@code tools/call}) and ends the operation CANCELLED with the
 * resolution STOPPED: each state an event on the outbox (requested, taken over, the wrap ended
 * without its effect, acknowledged by B, cancelled), one effect per step that ran and none after
 * the cancel.
 *
 * <p>A is stopped before the cancel (not killed right after it) so that it cannot acknowledge it
 * in between: its heartbeat would otherwise notice the cancel within a second, and the test would
 * be a race. B is started while A still runs and renews its lease, so B cannot take the run over
 * before the cancel is pending.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES) // two node starts on a loaded machine take most of it
@LongRunning
class CancelNodeDeathIT {

    /** Far longer than the test: only the cancel ends the wrap. */
    private static final Duration WRAP = Duration.ofMinutes(10);
    private static final Duration HANDLE = Duration.ofSeconds(60);
    private static final Duration TAKEOVER = Duration.ofSeconds(90);

    private static final String GIFT_WRAPPED = """
            {"sku":"SKU-ESPRESSO","quantity":1,"amount":12.50,"currency":"EUR","recipient":"ann@example.com",
             "giftWrap":true}""";

    private static ReferenceToolsProcess tools;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @BeforeAll
    static void startTheToolServer() throws Exception {
        tools = ReferenceToolsProcess.start(TestDatabase.fresh(),
                "--reference-tools.wrap-gift.duration=" + WRAP.toMillis() + "ms",
                "--reference-tools.tasks.poll-interval=1000ms");
    }

    @AfterAll
    static void stopTheToolServer() {
        if (tools != null) {
            tools.close();
        }
    }

    /** How the subject submits and cancels: the app's REST API, or an agent's MCP task. */
    enum Channel { REST, MCP }

    @ParameterizedTest(name = "submitted and cancelled over {0}")
    @EnumSource(Channel.class)
    void aCancelPendingWhenTheNodeHoldingTheRunDiesIsHonouredByTheNodeThatTakesItOver(Channel channel) throws Exception {
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        ChildNode a = nodes.start("cancel-a", database, tools.takeoverWorkerArguments());
        String operationId;
        String taskId = null;
        if (channel == Channel.REST) {
            operationId = checkouts.submit(a, GIFT_WRAPPED);
        } else {
            operationId = UUID.randomUUID().toString();
            // the same command as GIFT_WRAPPED, as a tool call's arguments
            Map<String, Object> arguments = new HashMap<>(Map.of("sku", "SKU-ESPRESSO", "quantity", 1,
                    "amount", 12.50, "currency", "EUR", "recipient", "ann@example.com", "giftWrap", true));
            arguments.put("operationId", operationId);
            var created = McpAgent.result(new McpAgent(a.node().base().getPort(), checkouts.token())
                    .callTool("checkout", arguments, true));
            assertThat(created).containsEntry("resultType", "task");
            taskId = (String) created.get("taskId");
        }
        await("the handle of wrap_gift's task in A's effect record").atMost(HANDLE).pollInterval(Duration.ofMillis(100))
                .until(() -> checkouts.downstreamTask(operationId, "wrap") != null);
        String handle = checkouts.downstreamTask(operationId, "wrap");
        ChildNode b = nodes.start("cancel-b", database, tools.takeoverWorkerArguments());
        assertThat(checkouts.heldBy(a)).as("A still holds the run once B is up").isEqualTo(1);
        var agentOnB = new McpAgent(b.node().base().getPort(), checkouts.token());

        a.suspend();
        if (channel == Channel.REST) {
            var cancel = checkouts.cancel(b, operationId);
            var repeat = checkouts.cancel(b, operationId);
            assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(202);
            assertThat(ApiClient.json(cancel).get("cancel").get("state").asString()).isEqualTo("requested");
            assertThat(repeat.statusCode()).as("the repeat gets the same answer: %s", repeat.body()).isEqualTo(202);
        } else {
            var cancel = agentOnB.request("tasks/cancel", Map.of("taskId", taskId), true, taskId);
            var repeat = agentOnB.request("tasks/cancel", Map.of("taskId", taskId), true, taskId);
            assertThat(McpAgent.result(cancel)).containsEntry("resultType", "complete");
            assertThat(McpAgent.result(repeat)).as("the repeat gets the same answer").isEqualTo(McpAgent.result(cancel));
        }
        assertThat(a.kill()).as("A SIGKILLed").isEqualTo(137);
        assertThat(checkouts.cancelRecord(operationId)).as("nobody acknowledged it while A was stalled")
                .containsEntry("acknowledged_by", null).containsEntry("resolution", null);
        assertThat(checkouts.effectRecord(operationId, "wrap")).isEqualTo("STARTED");

        await("operation " + operationId + " CANCELLED on B").atMost(TAKEOVER).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(checkouts.status(b, operationId)).isEqualTo("CANCELLED"));

        assertThat(checkouts.takenOver(a, b)).containsExactly(operationId);
        assertThat(checkouts.cancelRecord(operationId)).containsEntry("resolution", "STOPPED")
                .hasEntrySatisfying("acknowledged_by",
                        by -> assertThat((String) by).as("acknowledged by B's worker").startsWith(b.workerIdPrefix()));
        // B's takeover, then the wrap's end without its effect (the task cancelled at B's request),
        // then the acknowledgement and the resolution, which the end of B's run writes together
        assertThat(checkouts.eventsFromTheCancel(operationId)).containsExactly("CancelRequested",
                "OperationTakenOver", "AgentToolFailed:wrap_gift@wrap", "CancelAcknowledged", "OperationCancelled");
        assertThat(checkouts.downstreamTask(operationId, "wrap")).as("B followed the handle A stored").isEqualTo(handle);
        assertThat(checkouts.effectRecord(operationId, "wrap")).isEqualTo("FAILED");
        assertThat(tools.tasksOf(operationId, "wrap")).as("one tools/call of wrap_gift, its task cancelled")
                .singleElement().satisfies(task -> assertThat(task).startsWith("cancelled "));
        assertThat(tools.effectsOf(operationId)).as("one effect per step that ran, no wrap, no receipt")
                .containsExactlyInAnyOrder("reserve reserve_inventory", "capture capture_payment");
        if (channel == Channel.REST) {
            var again = checkouts.cancel(b, operationId);
            assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
            assertThat(ApiClient.json(again).get("cancel").get("resolution").asString()).isEqualTo("STOPPED");
        } else {
            assertThat(McpAgent.result(agentOnB.getTask(taskId))).containsEntry("taskId", taskId)
                    .containsEntry("status", "cancelled");
            assertThat(McpAgent.result(agentOnB.request("tasks/cancel", Map.of("taskId", taskId), true, taskId)))
                    .as("a cancel after the end is acknowledged and changes nothing").containsEntry("resultType", "complete");
            assertThat(checkouts.status(b, operationId)).isEqualTo("CANCELLED");
        }
    }
}

package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A checkout with a gift wrap: wrap_gift takes seconds, so reference-tools answers its call with a
 * task (MCP tasks extension). Node A stores the task's handle, polls it, and is SIGKILLed while
 * the wrap is still being made; node B takes the operation over, polls the stored handle, and
 * ends the checkout. The tool server is a process of its own that outlives A, and counts what
 * reached it: one tools/call of wrap_gift (one task), one wrap in its effect log.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // two node starts on a loaded machine take most of it
@LongRunning
class DownstreamTaskTakeoverIT {

    /** Long enough for A to be killed while the wrap is made, short enough for the test. */
    private static final Duration WRAP = Duration.ofSeconds(10);
    private static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
    private static final Duration HANDLE = Duration.ofSeconds(60);
    private static final Duration TAKEOVER = Duration.ofSeconds(90);

    private static ReferenceToolsProcess tools;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @BeforeAll
    static void startTheToolServer() throws Exception {
        tools = ReferenceToolsProcess.start(TestDatabase.fresh(),
                "--reference-tools.wrap-gift.duration=" + WRAP.toMillis() + "ms",
                "--reference-tools.tasks.poll-interval=" + POLL_INTERVAL.toMillis() + "ms");
    }

    @AfterAll
    static void stopTheToolServer() {
        if (tools != null) {
            tools.close();
        }
    }

    @Test
    void aNodeKilledWhileTheDownstreamTaskRunsLeavesItsHandleAndTheNextNodePollsItTheToolRunsOnce() throws Exception {
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        ChildNode a = nodes.start("task-a", database, tools.takeoverWorkerArguments());

        String operationId = checkouts.submit(a, """
                {"sku":"SKU-ESPRESSO","quantity":1,"amount":12.50,"currency":"EUR","recipient":"ann@example.com",
                 "giftWrap":true}""");

        await("the handle of wrap_gift's task in A's effect record").atMost(HANDLE).pollInterval(Duration.ofMillis(100))
                .until(() -> checkouts.downstreamTask(operationId, "wrap") != null);
        String handle = checkouts.downstreamTask(operationId, "wrap");
        assertThat(tools.tasksOf(operationId, "wrap")).as("the task when A dies").singleElement()
                .satisfies(task -> assertThat(task).startsWith("working "));
        assertThat(a.kill()).as("A SIGKILLed").isEqualTo(137);
        assertThat(checkouts.effectRecord(operationId, "wrap")).as("A's record of the wrap").isEqualTo("STARTED");
        int pollsByA = polls(tools.tasksOf(operationId, "wrap").getFirst());

        ChildNode b = nodes.start("task-b", database, tools.takeoverWorkerArguments());

        await("operation " + operationId + " SUCCEEDED on B").atMost(TAKEOVER).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(checkouts.status(b, operationId)).isEqualTo("SUCCEEDED"));
        assertThat(checkouts.takenOver(a, b)).containsExactly(operationId);
        assertThat(checkouts.downstreamTask(operationId, "wrap")).as("the handle B finished with").isEqualTo(handle);
        List<String> tasks = tools.tasksOf(operationId, "wrap");
        assertThat(tasks).as("tools/call of wrap_gift that reached the server: one task").singleElement()
                .satisfies(task -> assertThat(task).startsWith("completed "));
        int polls = polls(tasks.getFirst());
        assertThat(polls).as("tasks/get of the task: B polled the handle A stored").isGreaterThan(pollsByA);
        // the server asked for 1 s between polls: over the 10 s of the wrap, no faster than that
        // (B's first poll may come after the wrap ended)
        assertThat(polls).as("tasks/get of the task, by A and B").isLessThanOrEqualTo(
                (int) (WRAP.toMillis() / POLL_INTERVAL.toMillis()) + 2);
        assertThat(tools.effectsOf(operationId)).containsExactlyInAnyOrder("reserve reserve_inventory",
                "capture capture_payment", "wrap wrap_gift", "receipt send_message");
    }

    /** The polls of a task as {@link ReferenceToolsProcess#tasksOf} shows it ({@code "<status> <polls>"}). */
    private static int polls(String task) {
        return Integer.parseInt(task.substring(task.indexOf(' ') + 1));
    }
}

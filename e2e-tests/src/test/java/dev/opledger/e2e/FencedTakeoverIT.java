package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 9, fencing: node A stalls (SIGSTOP) in the middle of a checkout's capture, past its lease;
 * node B takes the operation over and finishes it; then A goes on (SIGCONT) where it stopped,
 * holding the tool's answer. Every write A then tries carries its old lease epoch and is refused
 * by the database, so it records nothing, calls no further tool, and says so in its log.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FencedTakeoverIT {

    private static final List<String> ONE_EFFECT_PER_STEP = List.of(
            "reserve reserve_inventory", "capture capture_payment", "receipt send_message");

    private static ReferenceToolsProcess tools;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @BeforeAll
    static void startTheToolServer() throws Exception {
        // every capture takes 3 s: time to see A in the middle of it and stop A there
        tools = ReferenceToolsProcess.start(TestDatabase.fresh(), "--reference-tools.faults.capture_payment=delay:3000");
    }

    @AfterAll
    static void stopTheToolServer() {
        if (tools != null) {
            tools.close();
        }
    }

    @Test
    void aNodeStoppedPastItsLeaseWakesUpToFindEveryWriteRefused() throws Exception {
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        ChildNode a = nodes.start("fenced-a", database, worker());
        String operationId = checkouts.submit(a, Checkouts.arguments("49.90"));
        await("A calling capture_payment").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> "STARTED".equals(checkouts.effectRecord(operationId, "capture")));

        a.suspend();
        ChildNode b = nodes.start("fenced-b", database, worker());
        await("B finishing the checkout").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> "SUCCEEDED".equals(checkouts.status(b, operationId)));
        List<String> transitionsWhenBFinished = checkouts.transitions(operationId);
        a.resume();

        // A's late write: the capture's outcome, which commits with the step's checkpoint (RunWrites), refused
        // by the fence; the worker that ends the run says so once
        String takenOver = "operation " + operationId + ": lease " + operationId + "@";
        Predicate<String> refusal = line -> line.contains(takenOver) && line.contains("was taken over")
                && line.contains("refused");
        await("A's refused write in its log").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> Files.readString(a.node().log(), StandardCharsets.UTF_8).lines().anyMatch(refusal));
        String logOfA = Files.readString(a.node().log(), StandardCharsets.UTF_8);
        assertThat(logOfA.lines().filter(refusal))
                .as("A's worker logs the refusal once, at WARN, with the operation").hasSize(1)
                .allSatisfy(line -> assertThat(line).contains(" WARN ").contains("OperationWorker"));
        // A's run has ended; any other late write of A would show within this window
        await("A changing nothing after it woke up").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> "SUCCEEDED".equals(checkouts.status(b, operationId))
                        && checkouts.transitions(operationId).equals(transitionsWhenBFinished));
        assertThat(checkouts.status(b, operationId)).isEqualTo("SUCCEEDED");
        assertThat(checkouts.transitions(operationId)).as("A changed nothing after it woke up")
                .isEqualTo(transitionsWhenBFinished)
                .anySatisfy(t -> assertThat(t).startsWith("RUNNING -> RUNNING by " + b.workerIdPrefix())
                        .contains("taken over: the lease of " + a.workerIdPrefix()))
                .last().satisfies(t -> assertThat(t).startsWith("RUNNING -> SUCCEEDED by " + b.workerIdPrefix()));
        assertThat(checkouts.effectRecord(operationId, "capture")).isEqualTo("SUCCEEDED");
        assertThat(tools.effectsOf(operationId)).as("one effect per step: A called no tool after the takeover")
                .containsExactlyInAnyOrderElementsOf(ONE_EFFECT_PER_STEP);
    }

    /** A worker node calling the class's tool server, with a lease short enough for a takeover within seconds. */
    private static List<String> worker() {
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.attest.mode=optional",
                "--opledger.worker.concurrency=2",
                "--opledger.worker.lease=2s",
                "--opledger.worker.heartbeat=500ms",
                "--spring.datasource.hikari.maximum-pool-size=6"));
        arguments.addAll(tools.nodeArguments());
        return arguments;
    }
}

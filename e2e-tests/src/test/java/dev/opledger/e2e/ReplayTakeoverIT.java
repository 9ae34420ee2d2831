package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.microsoft.playwright.Page;
import dev.opledger.testing.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A replay survives its node's death like any run: node A runs the fork an admin started in its
 * console and halts (as SIGKILL would) right after the tool committed the replay's capture; node
 * B takes the lease over, resumes the fork and finishes it. The capture's key makes the tool
 * answer the first capture again: one effect per step in the tool server's log.
 */
@ExtendWith(BrowserExtension.class)
@LongRunning
class ReplayTakeoverIT {

    private static final Duration DEATH = Duration.ofSeconds(60);
    private static final Duration TAKEOVER = Duration.ofSeconds(60);
    private static final List<String> ONE_EFFECT_PER_STEP = List.of(
            "reserve reserve_inventory", "capture capture_payment", "receipt send_message");

    private static ReferenceToolsProcess tools;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @BeforeAll
    static void startTheToolServer() throws Exception {
        tools = ReferenceToolsProcess.start(TestDatabase.fresh());
    }

    @AfterAll
    static void stopTheToolServer() {
        if (tools != null) {
            tools.close();
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // three nodes' start and a console session on a shared machine
    void aReplayWhoseNodeDiesIsTakenOverAndFinishedWithOneEffectPerStep(Page page) throws Exception {
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        ChildNode first = nodes.start("replay-first", database, tools.takeoverWorkerArguments());
        String operationId = checkouts.submit(first, Checkouts.arguments("49.90"));
        awaitStatus(checkouts, first, operationId, "SUCCEEDED");
        first.close();
        // as a lost answer leaves it: the capture's record STARTED (outcome unknown), the operation in review
        try (Connection db = E2eDatabase.connect(database)) {
            try (var update = db.prepareStatement("UPDATE effect_record SET status = 'STARTED', result = NULL, "
                    + "finished_at = NULL WHERE operation_ref = ? AND step_key = 'capture'")) {
                update.setLong(1, checkouts.ref(operationId));
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            try (var update = db.prepareStatement("UPDATE operation SET status = 'NEEDS_REVIEW', status_reason = "
                    + "'capture: answer lost' WHERE id = ?")) {
                update.setLong(1, checkouts.ref(operationId));
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
        }
        ChildNode a = nodes.start("replay-a", database,
                tools.takeoverWorkerArguments("--opledger.test.crash-at=after-tool-commit@capture"));

        signIn(page, a.node(), "admin", "admin");
        page.navigate(a.node().uri("operations/" + operationId + "?subject=" + checkouts.subject()).toString());
        page.locator("#replay-from-1").click();
        assertThat(page.locator("#replay-plan-grid").getByText("CALLED",
                new com.microsoft.playwright.Locator.GetByTextOptions().setExact(true))).hasCount(1);
        page.locator("#replay-start").click();

        assertThat(a.awaitExit(DEATH)).as("node A halts after the replay's capture, as SIGKILL would").isEqualTo(137);
        assertThat(checkouts.effectRecord(operationId, "capture")).isEqualTo("STARTED");

        ChildNode b = nodes.start("replay-b", database, tools.takeoverWorkerArguments());

        awaitStatus(checkouts, b, operationId, "SUCCEEDED");
        assertThat(tools.effectsOf(operationId)).as("the tool server's log: one effect per step, replay and all")
                .containsExactlyInAnyOrderElementsOf(ONE_EFFECT_PER_STEP);
        assertThat(checkouts.transitions(operationId))
                .anySatisfy(transition -> assertThat(transition).contains("replay from checkpoint"))
                .anySatisfy(transition -> assertThat(transition)
                        .startsWith("RUNNING -> RUNNING by " + b.workerIdPrefix())
                        .contains("taken over: the lease of " + a.workerIdPrefix()));
    }

    private static void awaitStatus(Checkouts checkouts, ChildNode node, String operationId, String status) {
        await("operation " + operationId + " " + status).atMost(TAKEOVER).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(checkouts.status(node, operationId)).isEqualTo(status));
    }
}

package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.microsoft.playwright.Page;
import dev.opledger.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node dies at the worst moments of a checkout and a fresh node takes the operation over: the
 * node halts with status 137 at an injected point ({@code opledger.test.crash-at}), as SIGKILL
 * would stop it, and the effects stay one per step in the tool server's effect log.
 *
 * <p>Each scenario runs on a database of its own, so a node sees no operation but the one under
 * test. The reference tool server is one process for the class, outliving every node; effects are
 * told apart by operationId. Leases are short (3 s) so a takeover comes soon after the death.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@ExtendWith(BrowserExtension.class) // the approval is given in the console
class CrashTakeoverIT {

    private static final Duration DEATH = Duration.ofSeconds(30);
    private static final Duration TAKEOVER = Duration.ofSeconds(45);
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

    /**
     * Where node A dies, and what it leaves behind: the effects of the step in the tool server and
     * the node's record of the step. A fresh node B then finishes with one effect per step.
     */
    @ParameterizedTest(name = "A dies at {0}")
    @CsvSource({
            // crash point,               effects of the step, its effect record — each of the three
            // points once, across the reservation and the capture (the other three
            // combinations cost CI two minutes and exercise the same takeover; CrashProof kills at random)
            "before-effect-call@reserve,  0, STARTED",
            "after-tool-commit@capture,   1, STARTED",
            "after-effect-record@capture, 1, SUCCEEDED"})
    void aFreshNodeTakesOverAndEndsTheCheckoutWithOneEffectPerStep(String crashAt, int effectsOfTheStep,
            String recordOfTheStep) throws Exception {
        String step = crashAt.substring(crashAt.indexOf('@') + 1);
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        ChildNode a = nodes.start("crash-a", database, worker("--opledger.test.crash-at=" + crashAt));

        String operationId = checkouts.submit(a, Checkouts.arguments("49.90"));

        assertThat(a.awaitExit(DEATH)).as("node A halts at %s as SIGKILL would", crashAt).isEqualTo(137);
        assertThat(tools.effectsOf(operationId).stream().filter(effect -> effect.startsWith(step + " ")))
                .as("effects of step %s when A died", step).hasSize(effectsOfTheStep);
        assertThat(checkouts.effectRecord(operationId, step)).as("A's record of step %s", step)
                .isEqualTo(recordOfTheStep);

        ChildNode b = nodes.start("crash-b", database, worker());

        awaitStatus(checkouts, b, operationId, "SUCCEEDED");
        assertThat(tools.effectsOf(operationId)).containsExactlyInAnyOrderElementsOf(ONE_EFFECT_PER_STEP);
        assertTakenOver(checkouts, operationId, a, b);
    }

    /**
     * The never-repeat receipt: A dies after the message was sent, before it recorded so. Sending
     * again could send it twice, so B parks the operation for a person, and one message went out.
     * Support sees the unknown call in the console, finds the message downstream and says it
     * landed: the checkout ends SUCCEEDED and the tool server still has one message.
     */
    @Test
    @LongRunning // CI keeps the three crash points above; these add two node starts each
    @Timeout(value = 4, unit = TimeUnit.MINUTES) // two nodes' start and a console session on a shared machine
    void aReceiptSentJustBeforeItsNodeDiedIsLeftForReviewAndSupportSaysItLandedSoItIsNotSentAgain(Page page)
            throws Exception {
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        ChildNode a = nodes.start("crash-a", database, worker("--opledger.test.crash-at=after-tool-commit@receipt"));

        String operationId = checkouts.submit(a, Checkouts.arguments("49.90"));

        assertThat(a.awaitExit(DEATH)).isEqualTo(137);
        assertThat(tools.effectsOf(operationId)).containsExactlyInAnyOrderElementsOf(ONE_EFFECT_PER_STEP);
        assertThat(checkouts.effectRecord(operationId, "receipt")).isEqualTo("STARTED");

        ChildNode b = nodes.start("crash-b", database, worker());

        awaitStatus(checkouts, b, operationId, "NEEDS_REVIEW");
        assertThat(checkouts.statusReason(operationId)).contains("send_message").contains("receipt");
        assertThat(tools.effectsOf(operationId)).containsExactlyInAnyOrderElementsOf(ONE_EFFECT_PER_STEP);
        assertTakenOver(checkouts, operationId, a, b);

        resolveInTheConsole(page, b, checkouts, operationId, "#resolve-landed", "the receipt is in the customer's inbox");
        assertThat(page.getByText("Resolved: the call of send_message for step receipt landed. The operation is "
                + "ACCEPTED again and goes on without calling it.")).isVisible();

        awaitStatus(checkouts, b, operationId, "SUCCEEDED");
        assertThat(checkouts.effectRecord(operationId, "receipt")).isEqualTo("SUCCEEDED");
        assertThat(tools.effectsOf(operationId)).as("no second message")
                .containsExactlyInAnyOrderElementsOf(ONE_EFFECT_PER_STEP);
        assertThat(checkouts.transitions(operationId)).contains("NEEDS_REVIEW -> ACCEPTED by console:support: "
                + "send_message of step receipt landed, said support; the run goes on without calling it: "
                + "the receipt is in the customer's inbox");
    }

    /**
     * A dies with the receipt's STARTED record committed and the message not sent. B cannot tell
     * that from a lost answer and parks it; support finds no message downstream and says it did
     * not land: the step calls send_message exactly once more, and the checkout ends SUCCEEDED
     * with one message in all.
     */
    @Test
    @LongRunning // CI keeps the three crash points above; these add two node starts each
    @Timeout(value = 4, unit = TimeUnit.MINUTES) // two nodes' start and a console session on a shared machine
    void aReceiptThatDidNotLandIsSentExactlyOnceAfterSupportSaysSo(Page page) throws Exception {
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        ChildNode a = nodes.start("crash-a", database, worker("--opledger.test.crash-at=before-effect-call@receipt"));

        String operationId = checkouts.submit(a, Checkouts.arguments("49.90"));

        assertThat(a.awaitExit(DEATH)).isEqualTo(137);
        assertThat(tools.effectsOf(operationId)).containsExactlyInAnyOrder(
                "reserve reserve_inventory", "capture capture_payment");
        assertThat(checkouts.effectRecord(operationId, "receipt")).isEqualTo("STARTED");

        ChildNode b = nodes.start("crash-b", database, worker());

        awaitStatus(checkouts, b, operationId, "NEEDS_REVIEW");
        resolveInTheConsole(page, b, checkouts, operationId, "#resolve-not-landed",
                "no message to the customer in the provider's log");
        assertThat(page.getByText("Resolved: the call of send_message for step receipt did not land. The operation "
                + "is ACCEPTED again and calls it once more.")).isVisible();

        awaitStatus(checkouts, b, operationId, "SUCCEEDED");
        assertThat(tools.effectsOf(operationId)).as("exactly one message, sent after the resolution")
                .containsExactlyInAnyOrderElementsOf(ONE_EFFECT_PER_STEP);
        assertThat(checkouts.effectRecord(operationId, "receipt")).isEqualTo("SUCCEEDED");
    }

    /**
     * Support opens the operation on B, sees the unknown call, and resolves it with {@code action}:
     * the note is required (confirming without it keeps the dialog open and changes nothing).
     */
    private static void resolveInTheConsole(Page page, ChildNode b, Checkouts checkouts, String operationId,
            String action, String note) throws Exception {
        signIn(page, b.node(), "support", "support");
        page.navigate(b.node().uri("operations/" + operationId + "?subject=" + checkouts.subject()).toString());
        assertThat(page.locator("#operation-status")).hasText("NEEDS_REVIEW");
        assertThat(page.locator("#unknown-effect-tool")).containsText("send_message");
        assertThat(page.locator("#unknown-effect-step")).hasText("receipt");
        assertThat(page.locator("#unknown-effect-digest")).hasText(java.util.regex.Pattern.compile("sha256:[0-9a-f]{64}"));
        assertThat(page.locator("#unknown-effect-started")).containsText("UTC");
        page.locator(action).click();
        page.locator("#resolution-confirm").click();
        assertThat(page.locator("#resolution-note")).hasAttribute("invalid", "");
        assertThat(checkouts.status(b, operationId)).as("nothing resolved without a note").isEqualTo("NEEDS_REVIEW");
        page.locator("#resolution-note textarea").fill(note);
        page.locator("#resolution-confirm").click();
    }

    /**
     * A dies as the checkout over the approval limit waits for a person. B brings it to
     * AWAITING_APPROVAL with nothing captured; support approves it in the console (on B), and the
     * payment and the receipt happen once while the reservation is not made again.
     */
    @Test
    @LongRunning // CI keeps the three crash points above; these add two node starts each
    void aCheckoutAwaitingApprovalWhenItsNodeDiedIsApprovedAndFinishedOnce(Page page) throws Exception {
        var database = TestDatabase.fresh();
        var checkouts = new Checkouts(database);
        ChildNode a = nodes.start("crash-a", database, worker("--opledger.test.crash-at=awaiting-approval@approval"));

        String operationId = checkouts.submit(a, Checkouts.arguments("612.00"));

        assertThat(a.awaitExit(DEATH)).isEqualTo(137);
        assertThat(tools.effectsOf(operationId)).containsExactly("reserve reserve_inventory");

        ChildNode b = nodes.start("crash-b", database, worker());

        awaitStatus(checkouts, b, operationId, "AWAITING_APPROVAL");
        assertTakenOver(checkouts, operationId, a, b);
        assertThat(tools.effectsOf(operationId)).containsExactly("reserve reserve_inventory");

        signIn(page, b.node(), "support", "support");
        page.navigate(b.node().uri("operations/" + operationId + "?subject=" + checkouts.subject()).toString());
        assertThat(page.locator("#operation-status")).hasText("AWAITING_APPROVAL");
        page.locator("#approve-operation").click();
        page.locator("#decision-reason textarea").fill("customer confirmed by phone");
        page.locator("#decision-confirm").click();
        assertThat(page.getByText("Approved: the operation is ACCEPTED again and its run goes on.")).isVisible();

        awaitStatus(checkouts, b, operationId, "SUCCEEDED");
        assertThat(checkouts.transitions(operationId)).contains(
                "AWAITING_APPROVAL -> ACCEPTED by console:support: approved by support: customer confirmed by phone");
        assertThat(tools.effectsOf(operationId)).containsExactlyInAnyOrderElementsOf(ONE_EFFECT_PER_STEP);
    }

    /** A worker node calling the class's tool server, with leases short enough for a quick takeover. */
    private static List<String> worker(String... extra) {
        return tools.takeoverWorkerArguments(extra);
    }

    private static void awaitStatus(Checkouts checkouts, ChildNode node, String operationId, String status) {
        await("operation " + operationId + " " + status).atMost(TAKEOVER).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(checkouts.status(node, operationId)).isEqualTo(status));
    }

    /** B leased the operation after A's lease expired, and its transitions say so. */
    private static void assertTakenOver(Checkouts checkouts, String operationId, ChildNode a, ChildNode b)
            throws Exception {
        assertThat(checkouts.transitions(operationId))
                .anySatisfy(transition -> assertThat(transition)
                        .startsWith("ACCEPTED -> RUNNING by " + a.workerIdPrefix()))
                .anySatisfy(transition -> assertThat(transition)
                        .startsWith("RUNNING -> RUNNING by " + b.workerIdPrefix())
                        .contains("taken over: the lease of " + a.workerIdPrefix()));
    }
}

package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.screenshot;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestTokens;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operation's detail in the console over the real flow: checkouts submitted through the API and
 * run by the node's worker through the checkout graph and the reference tools, looked at and
 * decided on by a support user in a real browser.
 */
@ExtendWith({NodeExtension.class, BrowserExtension.class})
// operations here are made without App Attest: the console is what is tested
@NodeArguments("--opledger.attest.mode=optional")
@LongRunning
class ConsoleTimelineIT {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern ANY = Pattern.compile(".*");

    private record Checkout(String subject, String operationId) {
    }

    @Test
    void theTimelineShowsACheckoutsStatusChangesCheckpointsAndEffects(Page page, RunningNode node) throws SQLException {
        Checkout checkout = submit(node, "49.90");
        awaitStatus(checkout, "SUCCEEDED");

        signIn(page, node, "support", "support");
        open(page, node, checkout);

        assertThat(page.locator("#operation-status")).hasText("SUCCEEDED");
        Locator timeline = page.locator("#timeline-grid");
        assertThat(cell(timeline, "CLAIMED")).isVisible();
        assertThat(cell(timeline, "ACCEPTED → RUNNING")).isVisible();
        assertThat(cell(timeline, "RUNNING → SUCCEEDED")).isVisible();
        assertThat(cell(timeline, "Checkpoint").first()).isVisible();
        assertThat(cell(timeline, "reserve: reserve_inventory (keyed)")).isVisible();
        assertThat(cell(timeline, "capture: capture_payment (keyed)")).isVisible();
        assertThat(cell(timeline, "receipt: send_message (never-repeat)")).isVisible();
        Locator effects = page.locator("#effects-grid");
        assertThat(cell(effects, "SUCCEEDED")).hasCount(3);
        assertThat(cell(effects, checkout.operationId() + ":reserve")).isVisible();
        Locator checkpoints = page.locator("#checkpoints-grid");
        assertThat(cell(checkpoints, "__START__")).isVisible();
        assertThat(cell(checkpoints, "__END__")).isVisible();
        // the last checkpoint's state: the names of what every step recorded, and its size, no values
        assertThat(checkpoints.getByText(Pattern.compile("^amount, .*payment, .*receipt, .*reservation, .* · [0-9]+ bytes$")))
                .hasCount(1);
        assertThat(checkpoints).not().containsText("SKU-");
        screenshot(page, "operation-timeline", cell(timeline, "receipt: send_message (never-repeat)"));
        screenshot(page, "operation-checkpoints", cell(checkpoints, "__END__"));
    }

    @Test
    void supportApprovesACheckoutOverTheLimitAndItSucceeds(Page page, RunningNode node) throws SQLException {
        Checkout checkout = submit(node, "900.00");
        awaitStatus(checkout, "AWAITING_APPROVAL");

        signIn(page, node, "support", "support");
        open(page, node, checkout);
        assertThat(page.locator("#operation-status")).hasText("AWAITING_APPROVAL");
        assertThat(page.locator("#operation-status-reason")).containsText("Waiting for a person to approve or reject it");
        Locator timeline = page.locator("#timeline-grid");
        assertThat(cell(timeline, "RUNNING → AWAITING_APPROVAL")).isVisible();
        assertThat(cell(timeline, "reserve: reserve_inventory (keyed)")).isVisible();
        assertThat(cell(timeline, "capture: capture_payment (keyed)")).hasCount(0);

        page.locator("#approve-operation").click();
        page.locator("#decision-reason textarea").fill("customer confirmed by phone");
        screenshot(page, "approval-dialog", page.locator("#decision-confirm"));
        page.locator("#decision-confirm").click();

        assertThat(page.getByText("Approved: the operation is ACCEPTED again and its run goes on.")).isVisible();
        try (Connection database = E2eDatabase.connect()) {
            assertThat(E2eQueries.list(database, "SELECT t.from_status || '>' || t.to_status || ' ' || t.node_id || ': ' "
                    + "|| t.reason FROM operation_transition t JOIN operation o ON o.id = t.operation_ref "
                    + "WHERE o.operation_id = ?::uuid AND t.from_status = 'AWAITING_APPROVAL'", checkout.operationId()))
                    .containsExactly("AWAITING_APPROVAL>ACCEPTED console:support: approved by support: customer confirmed by phone");
            assertThat(E2eQueries.list(database, "SELECT actor || ' ' || action || ' ' || detail FROM console_audit "
                    + "WHERE target = ?", checkout.operationId()))
                    .containsExactly("support APPROVE_OPERATION customer confirmed by phone");
        }
        awaitStatus(checkout, "SUCCEEDED");
        page.locator("#refresh-operation").click();

        assertThat(page.locator("#operation-status")).hasText("SUCCEEDED");
        assertThat(cell(timeline, "AWAITING_APPROVAL → ACCEPTED")).isVisible();
        assertThat(cell(timeline, "by console:support: approved by support: customer confirmed by phone")).isVisible();
        assertThat(cell(timeline, "reserve: reserve_inventory (keyed)")).isVisible();
        assertThat(cell(timeline, "capture: capture_payment (keyed)")).isVisible();
        assertThat(cell(timeline, "receipt: send_message (never-repeat)")).isVisible();
        assertThat(page.locator("#approve-operation")).hasCount(0);
    }

    @Test
    void aRejectionNeedsAReasonAndEndsTheCheckoutFailedWithItsReservationReleased(Page page, RunningNode node)
            throws SQLException {
        Checkout checkout = submit(node, "900.00");
        awaitStatus(checkout, "AWAITING_APPROVAL");
        signIn(page, node, "support", "support");
        open(page, node, checkout);

        page.locator("#reject-operation").click();
        page.locator("#decision-confirm").click();
        Locator reason = page.locator("#decision-reason");
        assertThat(reason).hasAttribute("invalid", ANY);
        assertThat(reason.locator("[slot='error-message']")).containsText("Give a reason");
        assertThat(status(checkout)).as("nothing decided yet").isEqualTo("AWAITING_APPROVAL");

        reason.locator("textarea").fill("card reported stolen");
        page.locator("#decision-confirm").click();

        assertThat(page.getByText("Rejected: the operation is ACCEPTED again; its run undoes what it did and ends FAILED."))
                .isVisible();
        awaitStatus(checkout, "FAILED");
        page.locator("#refresh-operation").click();
        assertThat(page.locator("#operation-status")).hasText("FAILED");
        assertThat(page.locator("#operation-status-reason"))
                .hasText("Failed: rejected by support: card reported stolen");
        Locator timeline = page.locator("#timeline-grid");
        assertThat(cell(timeline, "release: release_inventory (keyed)")).isVisible();
        assertThat(cell(timeline, "capture: capture_payment (keyed)")).hasCount(0);
    }

    @Test
    void supportCancelsACheckoutAwaitingApprovalAuditedAndTheTimelineShowsTheCancelsStates(Page page, RunningNode node)
            throws SQLException {
        Checkout checkout = submit(node, "900.00");
        awaitStatus(checkout, "AWAITING_APPROVAL");
        signIn(page, node, "support", "support");
        open(page, node, checkout);

        page.locator("#cancel-operation").click();
        page.locator("#cancel-reason textarea").fill("customer called to cancel");
        page.locator("#cancel-confirm").click();

        assertThat(page.getByText("Cancel stopped: no effect after the request; the operation is CANCELLED.")).isVisible();
        assertThat(page.locator("#operation-status")).hasText("CANCELLED");
        assertThat(page.locator("#operation-cancel-state"))
                .hasText("Cancel stopped: no effect after the request (requested by console:support)");
        assertThat(page.locator("#cancel-operation")).hasCount(0);
        assertThat(page.locator("#approve-operation")).hasCount(0);
        Locator timeline = page.locator("#timeline-grid");
        assertThat(cell(timeline, "AWAITING_APPROVAL → CANCELLED")).isVisible();
        assertThat(cell(timeline, "by console:support (CONSOLE): customer called to cancel")).isVisible();
        assertThat(cell(timeline, "stopped: no effect after the request")).isVisible();
        assertThat(cell(timeline, "capture: capture_payment (keyed)")).hasCount(0);
        try (Connection database = E2eDatabase.connect()) {
            assertThat(E2eQueries.list(database, "SELECT actor || ' ' || action || ' ' || detail FROM console_audit "
                    + "WHERE target = ?", checkout.operationId()))
                    .containsExactly("support CANCEL_OPERATION customer called to cancel");
            assertThat(E2eQueries.list(database, "SELECT e.type FROM outbox_event e WHERE e.operation_id = ?::uuid "
                    + "AND e.type LIKE 'Cancel%' ORDER BY e.sequence", checkout.operationId()))
                    .containsExactly("CancelRequested", "CancelAcknowledged");
        }
    }

    private static Checkout submit(RunningNode node, String amount) {
        var checkout = new Checkout("e2e-" + UUID.randomUUID(), UUID.randomUUID().toString());
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(checkout.subject()));
        var response = new ApiClient(node.base()).submit(token, checkout.operationId(), ApiClient.command("checkout",
                "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":" + amount
                        + ",\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return checkout;
    }

    private static void awaitStatus(Checkout checkout, String status) {
        await().atMost(RUN_TIMEOUT).untilAsserted(() -> assertThat(status(checkout)).isEqualTo(status));
    }

    private static String status(Checkout checkout) throws SQLException {
        try (Connection database = E2eDatabase.connect()) {
            List<Object> statuses = E2eQueries.list(database, "SELECT status FROM operation WHERE subject_id = ? "
                    + "AND operation_id = ?::uuid", checkout.subject(), checkout.operationId());
            return statuses.isEmpty() ? "(none)" : statuses.getFirst().toString();
        }
    }

    private static void open(Page page, RunningNode node, Checkout checkout) {
        page.navigate(node.uri("operations/" + checkout.operationId() + "?subject=" + checkout.subject()).toString());
        assertThat(page.locator("#operation-status-panel")).isVisible();
    }

    /** The grid cell whose whole text is {@code text}. */
    private static Locator cell(Locator grid, String text) {
        return grid.getByText(text, new Locator.GetByTextOptions().setExact(true));
    }
}

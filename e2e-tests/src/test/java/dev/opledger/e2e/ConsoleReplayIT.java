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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * "Replay from here" on an operation's checkpoint in a real browser, on the production jar with
 * its embedded reference tools: the dry run's table, the guard on a blocked effect (its
 * acknowledgement checkbox), Start for an admin only, and the audit rows.
 */
@ExtendWith({NodeExtension.class, BrowserExtension.class})
@NodeArguments("--opledger.attest.mode=optional")
@LongRunning
class ConsoleReplayIT {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);

    private record Checkout(String subject, String operationId) {
    }

    @Test
    void supportSeesTheDryRunOfAReplayButNoStart(Page page, RunningNode node) throws SQLException {
        Checkout checkout = submit(node);
        awaitStatus(checkout, "SUCCEEDED");

        signIn(page, node, "support", "support");
        open(page, node, checkout);
        page.locator("#replay-from-1").click();

        Locator plan = page.locator("#replay-plan-grid");
        assertThat(cell(plan, "reserve_inventory")).isVisible();
        assertThat(cell(plan, "send_message")).isVisible();
        assertThat(cell(plan, "SERVED")).hasCount(3);
        assertThat(page.locator("#replay-summary")).containsText("3 served from their record");
        assertThat(page.locator("#replay-admin-only")).hasText("Only an admin can start a replay; this is its dry run.");
        assertThat(page.locator("#replay-start")).hasCount(0);
        try (Connection database = E2eDatabase.connect()) {
            assertThat(E2eQueries.list(database, "SELECT actor || ' ' || action FROM console_audit WHERE target = ?",
                    checkout.operationId())).containsExactly("support REPLAY_DRY_RUN");
        }
    }

    @Test
    void anAdminAcknowledgesTheBlockedReceiptAndTheReplaySendsItOnceMoreAudited(Page page, RunningNode node)
            throws SQLException {
        Checkout checkout = submit(node);
        awaitStatus(checkout, "SUCCEEDED");
        // as a lost answer leaves it: the receipt's record STARTED (outcome unknown), the operation in review
        try (Connection database = E2eDatabase.connect()) {
            update(database, "UPDATE effect_record e SET status = 'STARTED', result = NULL, finished_at = NULL "
                    + "FROM operation o WHERE o.id = e.operation_ref AND o.operation_id = ?::uuid AND e.step_key = 'receipt'",
                    checkout.operationId());
            update(database, "UPDATE operation SET status = 'NEEDS_REVIEW', status_reason = 'receipt: the "
                    + "answer of send_message was lost' WHERE operation_id = ?::uuid", checkout.operationId());
        }

        signIn(page, node, "admin", "admin");
        open(page, node, checkout);
        screenshot(page, "unknown-effect-review", page.locator("#unknown-effect-tool"));
        page.locator("#replay-from-1").click();

        Locator plan = page.locator("#replay-plan-grid");
        assertThat(cell(plan, "BLOCKED")).hasCount(1);
        assertThat(cell(plan, "NEVER_REPEAT")).isVisible();
        Locator acknowledge = page.locator("#acknowledge-receipt");
        assertThat(acknowledge).containsText("I take responsibility for a possible second effect of send_message");
        acknowledge.locator("input").check();
        screenshot(page, "replay-dialog", page.locator("#replay-start"));
        page.locator("#replay-start").click();

        assertThat(page.getByText("Replay started from checkpoint #1: the operation is ACCEPTED again and runs on its "
                + "fork; you acknowledged receipt.")).isVisible();
        awaitStatus(checkout, "SUCCEEDED");
        try (Connection database = E2eDatabase.connect()) {
            assertThat(E2eQueries.count(database, "SELECT count(*) FROM reference_tools.effect_log WHERE operation_id = ?"
                    + " AND tool = 'send_message'", checkout.operationId()))
                    .as("the first message and the one acknowledged").isEqualTo(2);
            assertThat(E2eQueries.count(database, "SELECT count(*) FROM reference_tools.effect_log WHERE operation_id = ?"
                    + " AND tool = 'capture_payment'", checkout.operationId())).isEqualTo(1);
            assertThat(E2eQueries.list(database, "SELECT actor || ' ' || action FROM console_audit WHERE target = ? "
                    + "ORDER BY id", checkout.operationId()))
                    .containsExactly("admin REPLAY_DRY_RUN", "admin REPLAY_STARTED", "admin REPLAY_ACKNOWLEDGED_EFFECT");
        }
        page.locator("#refresh-operation").click();
        assertThat(page.locator("#operation-status")).hasText("SUCCEEDED");
        // the fork in the checkpoints, after the original history: its first checkpoint copies #1
        assertThat(cell(page.locator("#checkpoints-grid"), "replay of #1")).hasCount(1);
        assertThat(cell(page.locator("#timeline-grid"), "NEEDS_REVIEW → ACCEPTED")).isVisible();
    }

    private static void update(Connection database, String sql, Object... parameters) throws SQLException {
        try (var statement = database.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    private static Checkout submit(RunningNode node) {
        var checkout = new Checkout("e2e-" + UUID.randomUUID(), UUID.randomUUID().toString());
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(checkout.subject()));
        var response = new ApiClient(node.base()).submit(token, checkout.operationId(), ApiClient.command("checkout",
                "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":49.90,\"currency\":\"EUR\","
                        + "\"recipient\":\"ann@example.com\"}"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return checkout;
    }

    private static void awaitStatus(Checkout checkout, String status) {
        await().atMost(RUN_TIMEOUT).pollDelay(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(status(checkout)).isEqualTo(status));
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

    private static Locator cell(Locator grid, String text) {
        return grid.getByText(text, new Locator.GetByTextOptions().setExact(true));
    }
}

package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.logInButton;
import static dev.opledger.e2e.ConsolePages.screenshot;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Stuck tasks view over a real node and reference-tools whose capture_payment takes 15 s: the
 * checkout's capture is a call in flight past its 1 s threshold, listed with the node holding the
 * operation; support cancels it (a double click on confirm: one request, audited once) and, without
 * reloading, the view shows the cancel requested, then its honest end: the capture landed anyway,
 * no effect started after it, the operation CANCELLED.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
@ExtendWith(BrowserExtension.class)
@LongRunning
class ConsoleStuckTasksIT {

    private static final Pattern LOGIN_PAGE = Pattern.compile(".*/login(\\?.*)?$");
    private static final double MOVES_ON_MILLIS = 45_000;

    private static ReferenceToolsProcess tools;

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @BeforeAll
    static void startTheToolServer() throws Exception {
        // every capture takes 15 s: time to see it stuck, cancel it, and see the cancel pending
        tools = ReferenceToolsProcess.start(TestDatabase.fresh(), "--reference-tools.faults.capture_payment=delay:15000");
    }

    @AfterAll
    static void stopTheToolServer() {
        if (tools != null) {
            tools.close();
        }
    }

    @Test
    void supportCancelsACallInFlightAndWatchesTheCancelMoveOnToEffectCommittedAnyway(Page page) throws Exception {
        var database = TestDatabase.fresh();
        List<String> arguments = new ArrayList<>(List.of("--opledger.attest.mode=optional",
                "--opledger.stuck-tasks.tools.capture_payment=1s", "--spring.datasource.hikari.maximum-pool-size=6"));
        arguments.addAll(tools.nodeArguments());
        ChildNode node = nodes.start("stuck", database, arguments);

        page.navigate(node.node().uri("stuck-tasks").toString());
        assertThat(page).hasURL(LOGIN_PAGE);
        assertThat(logInButton(page)).isVisible();
        assertThat(page.locator("#outbound-grid")).hasCount(0);

        var checkouts = new Checkouts(database);
        String operationId = checkouts.submit(node, Checkouts.arguments("12.50"));
        await("the capture in flight").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> "STARTED".equals(checkouts.effectRecord(operationId, "capture")));
        String holder = single(database, "SELECT lease_owner FROM operation WHERE operation_id = ?::uuid", operationId);

        signIn(page, node.node(), "support", "support");
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Stuck tasks")).click();
        assertThat(page).hasURL(Pattern.compile(".*/stuck-tasks$"));
        assertThat(page.locator("#stuck-tasks-thresholds")).hasText("5 min by default; capture_payment 1.0 s");
        Locator outbound = page.locator("#outbound-grid");
        // listed once its 1 s threshold passed: the view reads again by itself
        assertThat(cell(outbound, operationId)).isVisible();
        assertThat(cell(outbound, "capture_payment")).isVisible();
        assertThat(cell(outbound, "RUNNING")).isVisible();
        assertThat(cell(outbound, holder)).isVisible();
        assertThat(outbound.getByText("reference/capture_payment@capture")).isVisible();

        outbound.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Cancel…")).click();
        page.locator("#cancel-reason").locator("textarea").fill("the agent gave up");
        page.locator("#cancel-confirm").dblclick();
        assertThat(page.locator("vaadin-notification-card")).containsText("Cancel requested");

        Locator cancels = page.locator("#cancels-grid");
        // the capture is still in flight
        assertThat(cell(outbound, "requested")).isVisible();
        assertThat(cell(cancels, operationId)).isVisible();
        screenshot(page, "stuck-tasks", cell(cancels, operationId));
        assertThat(cancels.getByText("console:support at ", new Locator.GetByTextOptions().setExact(false)))
                .containsText("the agent gave up");

        // no reload from here: the poll brings each state in
        assertThat(cell(cancels, "effect committed anyway: capture (capture_payment)"))
                .isVisible(new LocatorAssertions.IsVisibleOptions().setTimeout(MOVES_ON_MILLIS));
        assertThat(cell(cancels, "CANCELLED")).isVisible();
        // an ended operation has nothing in flight (the grid keeps a removed row's cell components, hidden)
        assertThat(cell(outbound, "No tool call is in flight past its threshold.")).isVisible();
        assertThat(cell(outbound, operationId)).not().isVisible();

        assertThat(count(database, "SELECT count(*) FROM console_audit WHERE action = 'CANCEL_OPERATION' AND target = ?",
                operationId)).as("a double click is one request, audited once").isEqualTo(1);
        assertThat(count(database, "SELECT count(*) FROM effect_record r JOIN operation o ON o.id = r.operation_ref "
                + "WHERE o.operation_id = ?::uuid AND r.started_at > (SELECT c.requested_at FROM operation_cancel c "
                + "WHERE c.operation_ref = o.id)", operationId)).as("no effect started after the cancel").isZero();
        assertThat(checkouts.status(node, operationId)).isEqualTo("CANCELLED");
    }

    private static String single(LocatedDatabase database, String sql, Object... parameters) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, sql, parameters).getFirst().toString();
        }
    }

    private static long count(LocatedDatabase database, String sql, Object... parameters) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.count(db, sql, parameters);
        }
    }

    /** The grid cell whose whole text is {@code text}. */
    private static Locator cell(Locator grid, String text) {
        return grid.getByText(text, new Locator.GetByTextOptions().setExact(true));
    }
}

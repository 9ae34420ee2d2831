package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.logInButton;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.awaitility.Awaitility.await;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The console's authorisation matrix driven through the browser (issue 15; the matrix is
 * docs/console-authorisation.md, its server-side half ConsoleAuthorisationMatrixIT in the ui module): anonymous
 * visitors are sent to the login page from every route; SUPPORT gets every view but none of the
 * admin-only controls (tool edit and probe, device revoke); ADMIN gets them.
 */
@ExtendWith({NodeExtension.class, BrowserExtension.class})
@NodeArguments("--opledger.attest.mode=optional")
class ConsoleAuthorisationIT {

    /** Every console route but the login page (as ROUTE_MATRIX in ConsoleAuthorisationMatrixIT). */
    static final List<String> ROUTES = List.of("", "ledger", "operations/" + UUID.randomUUID() + "?subject=alice",
            "outbox", "conflicts", "tools", "devices", "stuck-tasks");
    private static final String EDIT = "#edit-reference-set_shipping_address";

    @Test
    void anonymousVisitorsAreSentToTheLoginPageFromEveryRoute(Page page, RunningNode node) {
        for (String route : ROUTES) {
            page.navigate(node.uri(route).toString());
            assertThat(page).hasURL(Pattern.compile(".*/login$"));
            assertThat(logInButton(page)).isVisible();
            assertThat(page.locator("#signed-in-user")).hasCount(0);
        }
    }

    @Test
    void supportGetsEveryViewButNoAdminControls(Page page, RunningNode node) throws SQLException {
        String subject = signedInWithAKeyToShow(page, node, "support");

        page.navigate(node.uri("tools").toString());
        assertThat(page.locator("#tools-grid")).isVisible();
        assertThat(page.locator(EDIT)).hasCount(0);
        assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Edit"))).hasCount(0);
        assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Run probe"))).hasCount(0);

        page.navigate(node.uri("devices").toString());
        DevicesIT.filterBySubject(page, subject);
        assertThat(DevicesIT.revokeButton(page.locator("#devices-grid"))).hasCount(0);
    }

    @Test
    void adminGetsEveryViewAndTheAdminControls(Page page, RunningNode node) throws SQLException {
        String subject = signedInWithAKeyToShow(page, node, "admin");

        page.navigate(node.uri("tools").toString());
        assertThat(page.locator(EDIT)).isVisible();

        page.navigate(node.uri("devices").toString());
        DevicesIT.filterBySubject(page, subject);
        assertThat(DevicesIT.revokeButton(page.locator("#devices-grid"))).hasCount(1);
    }

    /**
     * Inserts a device key of a new subject, waits for the reference tools, signs in as {@code user}
     * (whose password is the same word) and opens every route; returns the key's subject.
     */
    private static String signedInWithAKeyToShow(Page page, RunningNode node, String user) throws SQLException {
        String subject = "e2e-authz-" + UUID.randomUUID();
        DevicesIT.insertKey(subject);
        awaitReferenceTools();
        signIn(page, node, user, user);
        everyViewIsOpen(page, node, user);
        return subject;
    }

    /** A direct URL to every route opens it, signed in, not the login page. */
    private static void everyViewIsOpen(Page page, RunningNode node, String user) {
        for (String route : ROUTES) {
            page.navigate(node.uri(route).toString());
            assertThat(page.locator("#signed-in-user")).hasText(user);
            assertThat(logInButton(page)).hasCount(0);
        }
    }

    /** The node lists its servers once it has started: the Tools view shows what is discovered by then. */
    private static void awaitReferenceTools() {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try (Connection database = E2eDatabase.connect(); var query = database.prepareStatement(
                    "SELECT count(*) FROM tool_classification WHERE server = 'reference' "
                            + "AND tool = 'set_shipping_address' AND input_schema IS NOT NULL")) {
                var rows = query.executeQuery();
                return rows.next() && rows.getLong(1) == 1;
            }
        });
    }
}

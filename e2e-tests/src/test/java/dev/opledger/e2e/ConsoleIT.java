package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.logInButton;
import static dev.opledger.e2e.ConsolePages.screenshot;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.SameSiteAttribute;
import dev.opledger.operation.Command;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The console in a real browser against the production jar, with operations made through the API. */
@ExtendWith({NodeExtension.class, BrowserExtension.class})
// operations here are made without App Attest and are not run (they stay ACCEPTED): the console
// is what is tested
@NodeArguments({"--opledger.attest.mode=optional", "--opledger.worker.enabled=false"})
@LongRunning
class ConsoleIT {

    private static final Pattern LOGIN_PAGE = Pattern.compile(".*/login(\\?.*)?$");
    private static final Pattern ANY = Pattern.compile(".*");

    @ParameterizedTest
    @ValueSource(strings = {"ledger", "conflicts"})
    void anonymousVisitorsEndOnTheLoginPage(String path, Page page, RunningNode node) {
        page.navigate(node.uri(path).toString());

        assertThat(page).hasURL(LOGIN_PAGE);
        assertThat(logInButton(page)).isVisible();
        screenshot(page, "login", logInButton(page));
        assertThat(page.locator("#ledger-grid")).hasCount(0);
    }

    @Test
    void supportFindsAnOperationAndTheReuseOfItsKey(Page page, RunningNode node) {
        String subject = "e2e-" + UUID.randomUUID();
        String operationId = UUID.randomUUID().toString();
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        String first = Checkout.command(2);
        String other = Checkout.command(3);
        var api = new ApiClient(node.base());
        var accepted = api.submit(token, operationId, first);
        var reused = api.submit(token, operationId, other);
        assertThat(accepted.statusCode()).isEqualTo(202);
        assertThat(reused.statusCode()).isEqualTo(422);
        String storedHash = ApiClient.json(accepted).get("payloadHash").asString();
        String offeredHash = Command.parse(other.getBytes(StandardCharsets.UTF_8)).payloadHash().hex();

        signIn(page, node, "support", "support");
        assertThat(page.locator("#ledger-grid")).isVisible();
        assertThat(page.locator("#signed-in-user")).hasText("support");

        Locator operationIdField = page.locator("#filter-operation-id");
        Locator operationIdInput = operationIdField.locator("input");
        operationIdInput.fill("not-an-operation-id");
        operationIdInput.press("Enter");
        assertThat(operationIdField).hasAttribute("invalid", ANY);
        assertThat(operationIdField.locator("[slot='error-message']")).containsText("Enter a whole operationId");

        operationIdInput.fill(operationId);
        operationIdInput.press("Enter");
        assertThat(operationIdField).not().hasAttribute("invalid", ANY);
        Locator row = page.locator("#ledger-grid").getByText(operationId);
        assertThat(row).isVisible();
        assertThat(page.locator("#ledger-grid").getByText(subject)).isVisible();
        screenshot(page, "ledger", row);

        row.click();
        assertThat(page).hasURL(Pattern.compile(".*/operations/" + operationId + "\\?subject=" + subject));
        assertThat(page.locator("#detail-payload-hash")).hasText(storedHash);
        assertThat(page.locator("#detail-status")).hasText("ACCEPTED");
        // sent without an App Attest assertion, which this node (attestation optional) accepts
        assertThat(page.locator("#detail-attested")).hasText("no");
        assertThat(page.locator("#detail-command"))
                .hasText(Command.parse(first.getBytes(StandardCharsets.UTF_8)).canonicalJson());
        assertThat(page.locator("#attempts-grid").getByText("CLAIMED")).isVisible();
        assertThat(page.locator("#operation-conflicts-grid").getByText(offeredHash)).isVisible();
        screenshot(page, "operation-key-reuse", page.locator("#operation-conflicts-grid").getByText(offeredHash));

        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Conflicts")).click();
        assertThat(page).hasURL(Pattern.compile(".*/conflicts$"));
        Locator link = page.locator("#conflicts-grid").getByRole(AriaRole.LINK,
                new Locator.GetByRoleOptions().setName(operationId));
        assertThat(link).isVisible();
        screenshot(page, "conflicts", link);
        link.click();
        assertThat(page.locator("#detail-payload-hash")).hasText(storedHash);
    }

    /** Regression: a link without ?subject= said "Operation not found"; support staff paste ids from tickets and logs. */
    @Test
    void anOperationIdAloneOpensTheOperation(Page page, RunningNode node) {
        String subject = "e2e-" + UUID.randomUUID();
        String operationId = UUID.randomUUID().toString();
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        var accepted = new ApiClient(node.base()).submit(token, operationId, Checkout.command(1));
        assertThat(accepted.statusCode()).isEqualTo(202);
        String storedHash = ApiClient.json(accepted).get("payloadHash").asString();
        signIn(page, node, "support", "support");
        assertThat(page.locator("#ledger-grid")).isVisible();

        page.navigate(node.uri("operations/" + operationId).toString());

        assertThat(page.locator("#detail-payload-hash")).hasText(storedHash);
        assertThat(page.locator("#detail-subject")).hasText(subject);
        assertThat(page.locator("#operation-not-found")).hasCount(0);
        page.navigate(node.uri("operations/" + operationId + "?subject=someone-else").toString());
        assertThat(page.locator("#operation-not-found")).containsText("There is no operation " + operationId
                + " for subject someone-else");
        page.navigate(node.uri("operations/" + UUID.randomUUID()).toString());
        assertThat(page.locator("#operation-not-found")).containsText("There is no operation");
    }

    @Test
    void wrongPasswordShowsTheLoginErrorAndDoesNotGetIn(Page page, RunningNode node) {
        signIn(page, node, "support", "not-the-password");

        assertThat(page).hasURL(LOGIN_PAGE);
        assertThat(page.getByText("Sign-in failed")).isVisible();

        page.navigate(node.uri("ledger").toString());
        assertThat(page).hasURL(LOGIN_PAGE);
        assertThat(page.locator("#ledger-grid")).hasCount(0);
    }

    /**
     * The browser's own sign-in carries the CSRF token the sign-in POST needs (issue 8), and the
     * session cookie it gets is Lax and HttpOnly; the local profile serves plain http, so not Secure.
     */
    @Test
    void theBrowsersSignInSendsTheCsrfTokenAndGetsALaxSessionCookie(Page page, RunningNode node) {
        var signInPost = page.waitForRequest(request -> request.method().equals("POST")
                && request.url().endsWith("/login"), () -> signIn(page, node, "support", "support"));

        assertThat(signInPost.postData()).contains("_csrf=");
        assertThat(page.locator("#ledger-grid")).isVisible();
        assertThat(page.context().cookies()).filteredOn(cookie -> cookie.name.equals("JSESSIONID")).singleElement()
                .satisfies(cookie -> {
                    assertThat(cookie.sameSite).isEqualTo(SameSiteAttribute.LAX);
                    assertThat(cookie.httpOnly).isTrue();
                    assertThat(cookie.secure).isFalse();
                });
    }

    @Test
    void adminOpensTheLedgerSeesAMissingOperationAndSignsOut(Page page, RunningNode node) {
        signIn(page, node, "admin", "admin");
        assertThat(page.locator("#ledger-grid")).isVisible();
        assertThat(page.locator("#signed-in-user")).hasText("admin");
        page.navigate(node.uri("operations/" + UUID.randomUUID() + "?subject=nobody").toString());
        assertThat(page.locator("#operation-not-found")).containsText("There is no operation");

        page.locator("#sign-out").click();

        assertThat(page).hasURL(LOGIN_PAGE);
        page.navigate(node.uri("conflicts").toString());
        assertThat(page).hasURL(LOGIN_PAGE);
    }

    /**
     * A real failure behind the console: the operation table disappears (renamed for the length of
     * the test) while someone is looking at the ledger. A grid fetch fails (the session's error
     * handler) and so does opening a view (the error view); both show a reference, not the
     * exception.
     */
    @Test
    void failuresShowAReferenceNotTheException(Page page, RunningNode node) throws SQLException {
        signIn(page, node, "support", "support");
        assertThat(page.locator("#ledger-grid")).isVisible();

        try (Connection database = E2eDatabase.connect()) {
            database.createStatement().execute("ALTER TABLE operation RENAME TO operation_hidden_by_e2e");
            try {
                Locator subjectInput = page.locator("#filter-subject input");
                subjectInput.fill("anyone");
                subjectInput.press("Enter");
                assertThat(page.locator("#console-error")).isAttached();
                assertThat(page.getByText(Pattern.compile("Something went wrong \\(reference [0-9a-f]{8}\\)")))
                        .isVisible();

                page.navigate(node.uri("operations/" + UUID.randomUUID() + "?subject=anyone").toString());
                assertThat(page.locator("#console-error-message")).containsText("reference");
                assertThat(page.locator("body")).not().containsText("does not exist");
                assertThat(page.locator("body")).not().containsText("operation_hidden_by_e2e");
            } finally {
                database.createStatement().execute("ALTER TABLE operation_hidden_by_e2e RENAME TO operation");
            }
        }
    }
}

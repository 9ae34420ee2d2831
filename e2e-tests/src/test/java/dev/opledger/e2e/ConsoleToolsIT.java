package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestTokens;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Tools view over the production jar and its embedded reference-tools: an admin's edit of a
 * class is what the gateway uses for the next checkout; SUPPORT sees the registry without a way to
 * change it; of two admins editing one tool, the second is told and keeps what they typed. The
 * tests edit set_shipping_address (IDEMPOTENT from its annotations) and put it back after each
 * test, as later test classes on the same database expect it.
 */
@ExtendWith({NodeExtension.class, BrowserExtension.class})
@NodeArguments({"--opledger.attest.mode=optional"})
class ConsoleToolsIT {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final String TOOL = "set_shipping_address";
    private static final String EDIT = "#edit-reference-" + TOOL;

    /** The tool's class, source and reason before the test. */
    private String[] before;

    @BeforeEach
    void discovered() throws SQLException {
        // the node lists reference-tools once it has started: the view shows what is discovered by then
        await().atMost(RUN_TIMEOUT).until(() -> query("SELECT tool FROM tool_classification WHERE server = 'reference' "
                + "AND tool = ? AND input_schema IS NOT NULL", TOOL).size() == 1);
        before = query("SELECT repeat_class || '|' || source || '|' || reason FROM tool_classification "
                + "WHERE server = 'reference' AND tool = ?", TOOL).getFirst().toString().split("\\|", 3);
    }

    @AfterEach
    void putTheToolBack() throws SQLException {
        try (Connection database = E2eDatabase.connect(); var statement = database.prepareStatement("""
                UPDATE tool_classification SET repeat_class = ?, source = ?, reason = ?,
                    max_calls = NULL, backoff_ms = NULL, call_timeout_ms = NULL
                WHERE server = 'reference' AND tool = ?""")) {
            statement.setString(1, before[0]);
            statement.setString(2, before[1]);
            statement.setString(3, before[2]);
            statement.setString(4, TOOL);
            statement.executeUpdate();
        }
        try (Connection database = E2eDatabase.connect(); var statement = database.prepareStatement(
                "SELECT pg_notify('opledger_tool_registry', json_build_object('server', 'reference', 'tool', ?::text)::text)")) {
            statement.setString(1, TOOL);
            statement.execute(); // as the registry's own writes do: the node drops its cached class
        }
    }

    @Test
    void anAdminChangesAClassAndTheNextCheckoutIsRunWithIt(Page page, RunningNode node) throws SQLException {
        signIn(page, node, "admin", "admin");
        page.navigate(node.uri("tools").toString());
        assertThat(query("SELECT repeat_class FROM tool_classification WHERE server = 'reference' AND tool = ?", TOOL))
                .containsExactly("IDEMPOTENT");

        page.locator(EDIT).click();
        chooseClass(page, "NEVER_REPEAT");
        page.locator("#tool-edit-max-calls input").fill("1");
        page.locator("#tool-edit-reason textarea").fill("e2e: the carrier charges per address change");
        page.locator("#tool-edit-save").click();

        assertThat(page.locator("#tool-edit-dialog")).hasCount(0);
        assertThat(page.locator("#tools-grid").getByText("e2e: the carrier charges per address change")).isVisible();
        assertThat(query("SELECT repeat_class || ' ' || source || ' ' || max_calls FROM tool_classification "
                + "WHERE server = 'reference' AND tool = ?", TOOL)).containsExactly("NEVER_REPEAT ADMIN 1");
        assertThat(query("SELECT actor || ' ' || action FROM console_audit WHERE target = ? AND detail LIKE ?",
                "reference/" + TOOL, "before: IDEMPOTENT (ANNOTATION)%after: NEVER_REPEAT (ADMIN)%reason: e2e: the carrier%"))
                .containsExactly("admin EDIT_TOOL_CLASS");

        String operation = submitCheckout(node);
        await().atMost(RUN_TIMEOUT).untilAsserted(() -> assertThat(query(
                "SELECT status FROM operation WHERE operation_id = ?::uuid", operation)).containsExactly("SUCCEEDED"));
        assertThat(query("SELECT r.repeat_class FROM effect_record r JOIN operation o ON o.id = r.operation_ref "
                + "WHERE o.operation_id = ?::uuid AND r.tool = ?", operation,
                TOOL)).as("the gateway's decision for the next effect").containsExactly("NEVER_REPEAT");
    }

    @Test
    void supportSeesTheRegistryButNoWayToChangeIt(Page page, RunningNode node) {
        signIn(page, node, "support", "support");
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Tools")).click();

        assertThat(page.locator("#servers-grid").getByText("reference", new Locator.GetByTextOptions().setExact(true))).isVisible();
        assertThat(page.locator("#tools-grid").getByText(TOOL, new Locator.GetByTextOptions().setExact(true))).isVisible();
        assertThat(page.locator("#tools-grid").getByText("get_points (landed: applied)")).isVisible();
        assertThat(page.locator(EDIT)).hasCount(0);
        assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Edit"))).hasCount(0);
    }

    @Test
    void ofTwoAdminsEditingAtOnceTheSecondIsToldAndKeepsWhatTheyTyped(Page page, RunningNode node) throws SQLException {
        Browser browser = page.context().browser();
        try (BrowserContext otherContext = browser.newContext()) {
            Page other = otherContext.newPage();
            for (Page admin : List.of(page, other)) {
                signIn(admin, node, "admin", "admin");
                admin.navigate(node.uri("tools").toString());
                admin.locator(EDIT).click();
            }
            chooseClass(page, "KEYED");
            page.locator("#tool-edit-reason textarea").fill("e2e: first admin");
            page.locator("#tool-edit-save").click();
            assertThat(page.locator("#tool-edit-dialog")).hasCount(0);

            chooseClass(other, "NEVER_REPEAT");
            other.locator("#tool-edit-reason textarea").fill("e2e: second admin");
            other.locator("#tool-edit-save").click();

            assertThat(other.locator("#tool-edit-problem")).containsText("Changed by someone else since you opened it");
            assertThat(other.locator("#tool-edit-problem")).containsText("KEYED (ADMIN)");
            assertThat(other.locator("#tool-edit-reason textarea")).hasValue("e2e: second admin");
            assertThat(query("SELECT repeat_class || ' ' || reason FROM tool_classification "
                    + "WHERE server = 'reference' AND tool = ?", TOOL)).containsExactly("KEYED e2e: first admin");

            other.locator("#tool-edit-save").click();
            assertThat(other.locator("#tool-edit-dialog")).hasCount(0);
            assertThat(query("SELECT repeat_class || ' ' || reason FROM tool_classification "
                    + "WHERE server = 'reference' AND tool = ?", TOOL)).containsExactly("NEVER_REPEAT e2e: second admin");
        }
    }

    private static void chooseClass(Page page, String repeatClass) {
        page.locator("#tool-edit-class").click();
        page.getByRole(AriaRole.OPTION, new Page.GetByRoleOptions().setName(repeatClass).setExact(true)).click();
    }

    private static String submitCheckout(RunningNode node) {
        String subject = "e2e-" + UUID.randomUUID();
        String operationId = UUID.randomUUID().toString();
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        var response = new ApiClient(node.base()).submit(token, operationId, ApiClient.command("checkout",
                "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":12.50,\"currency\":\"EUR\","
                        + "\"recipient\":\"ann@example.com\",\"shippingAddress\":\"1 Main St\"}"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return operationId;
    }

    private static List<Object> query(String sql, Object... parameters) throws SQLException {
        try (Connection database = E2eDatabase.connect()) {
            return E2eQueries.list(database, sql, parameters);
        }
    }
}

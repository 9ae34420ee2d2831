package dev.opledger.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static dev.opledger.e2e.ConsolePages.logInButton;
import static dev.opledger.e2e.ConsolePages.screenshot;
import static dev.opledger.e2e.ConsolePages.signIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The events of an operation and the outbox's state in the console, over the production jar's own
 * relay and embedded Kafka: what the relay published says when, what waits says so, and the
 * Outbox view names the relay's holder and counts the backlog. To make events wait, a test takes
 * the relay's election in the database as a stalled node would hold it, and gives it back.
 */
@ExtendWith({NodeExtension.class, BrowserExtension.class})
// the relay on, with the local profile's embedded broker (child nodes run without by default)
@NodeArguments({"--opledger.attest.mode=optional", "--opledger.events.enabled=true"})
@LongRunning
class ConsoleOutboxIT {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final String STALLED_NODE = "stalled-node";
    private static final Pattern LOGIN_PAGE = Pattern.compile(".*/login(\\?.*)?$");
    private static final Pattern PUBLISHED = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d [^(]* UTC \\(after [^)]*\\)$");

    private record Checkout(String subject, String operationId) {
    }

    @AfterEach
    void giveBackTheElection() throws SQLException {
        try (Connection database = E2eDatabase.connect(); var statement = database.prepareStatement(
                "UPDATE outbox_relay SET expires_at = '-infinity' WHERE name = 'relay' AND holder = ?")) {
            statement.setString(1, STALLED_NODE);
            statement.executeUpdate();
        }
    }

    @Test
    void anonymousVisitorsEndOnTheLoginPage(Page page, RunningNode node) {
        page.navigate(node.uri("outbox").toString());

        assertThat(page).hasURL(LOGIN_PAGE);
        assertThat(logInButton(page)).isVisible();
        assertThat(page.locator("#outbox-backlog")).hasCount(0);
    }

    @Test
    void supportSeesWhenEachEventWasPublishedAndThatThisNodeHoldsTheRelay(Page page, RunningNode node)
            throws SQLException {
        Checkout checkout = submit(node);
        awaitStatus(checkout, "SUCCEEDED");
        await().atMost(RUN_TIMEOUT).until(() -> unpublished() == 0);

        signIn(page, node, "support", "support");
        open(page, node, checkout);

        Locator events = page.locator("#events-grid");
        assertThat(cell(events, "OperationAccepted")).isVisible();
        assertThat(cell(events, "OperationSucceeded")).isVisible();
        assertThat(cell(events, "reserve: reserve_inventory").first()).isVisible();
        assertThat(events.getByText(PUBLISHED)).hasCount((int) events(checkout));
        assertThat(cell(events, "not yet published")).hasCount(0);

        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Outbox")).click();
        assertThat(page).hasURL(Pattern.compile(".*/outbox$"));
        assertThat(page.locator("#outbox-relay-holder")).hasText(holder() + " (this node)");
        assertThat(page.locator("#outbox-relay-lease")).containsText("held, epoch " + epoch());
        assertThat(page.locator("#outbox-local-relay")).hasText("on: this node's relay is " + holder());
        assertThat(page.locator("#outbox-backlog")).hasText("0");
        assertThat(page.locator("#outbox-lag")).hasText("none waiting");
        assertThat(page.locator("#outbox-published-last-minute")).not().hasText("0");
    }

    @Test
    void whileAnotherNodeHoldsTheRelayEventsWaitAndTheOutboxShowsTheBacklogAndTheHolder(Page page, RunningNode node)
            throws SQLException {
        await().atMost(RUN_TIMEOUT).until(() -> unpublished() == 0);
        takeTheElection();
        Checkout checkout = submit(node);
        awaitStatus(checkout, "SUCCEEDED");
        long waiting = events(checkout);
        assertThat(waiting).isGreaterThanOrEqualTo(5);
        assertThat(unpublished()).as("nothing published while the stalled node holds the relay").isEqualTo(waiting);

        signIn(page, node, "support", "support");
        open(page, node, checkout);
        Locator events = page.locator("#events-grid");
        assertThat(cell(events, "not yet published")).hasCount((int) waiting);
        assertThat(page.getByText("Events (" + waiting + ", " + waiting + " not yet published)")).isVisible();

        page.navigate(node.uri("outbox").toString());
        assertThat(page.locator("#outbox-relay-holder")).hasText(STALLED_NODE);
        assertThat(page.locator("#outbox-relay-lease")).containsText("held, epoch " + epoch());
        assertThat(page.locator("#outbox-backlog")).hasText(Long.toString(waiting));
        assertThat(page.locator("#outbox-lag")).containsText("the oldest unpublished event occurred");
        screenshot(page, "outbox", page.locator("#outbox-lag"));

        giveBackTheElection();
        await().atMost(RUN_TIMEOUT).untilAsserted(() -> {
            page.locator("#refresh-outbox").click();
            assertThat(page.locator("#outbox-backlog")).hasText("0");
        });
        assertThat(page.locator("#outbox-relay-holder")).hasText(holder() + " (this node)");
        assertThat(page.locator("#outbox-lag")).hasText("none waiting");

        open(page, node, checkout);
        assertThat(events.getByText(PUBLISHED)).hasCount((int) waiting);
        assertThat(cell(events, "not yet published")).hasCount(0);
    }

    /** As a node that won the election and stalled would hold it: the node's relay loses it and cannot win it back. */
    private static void takeTheElection() throws SQLException {
        try (Connection database = E2eDatabase.connect(); var statement = database.prepareStatement(
                "UPDATE outbox_relay SET epoch = epoch + 1, holder = ?, expires_at = now() + interval '10 minutes' "
                        + "WHERE name = 'relay'")) {
            statement.setString(1, STALLED_NODE);
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    private static Checkout submit(RunningNode node) {
        var checkout = new Checkout("e2e-" + UUID.randomUUID(), UUID.randomUUID().toString());
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(checkout.subject()));
        var response = new ApiClient(node.base()).submit(token, checkout.operationId(), ApiClient.command("checkout",
                "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":12.50,\"currency\":\"EUR\","
                        + "\"recipient\":\"ann@example.com\"}"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return checkout;
    }

    private static void awaitStatus(Checkout checkout, String status) {
        await().atMost(RUN_TIMEOUT).untilAsserted(() -> assertThat(query(
                "SELECT status FROM operation WHERE operation_id = ?::uuid", checkout.operationId())).containsExactly(status));
    }

    private static long events(Checkout checkout) throws SQLException {
        try (Connection database = E2eDatabase.connect()) {
            return E2eQueries.count(database, "SELECT count(*) FROM outbox_event WHERE operation_id = ?::uuid",
                    checkout.operationId());
        }
    }

    private static long unpublished() throws SQLException {
        try (Connection database = E2eDatabase.connect()) {
            return E2eQueries.count(database, "SELECT count(*) FROM outbox_event WHERE published_at IS NULL");
        }
    }

    private static String holder() throws SQLException {
        return query("SELECT holder FROM outbox_relay").getFirst().toString();
    }

    private static long epoch() throws SQLException {
        return ((Number) query("SELECT epoch FROM outbox_relay").getFirst()).longValue();
    }

    private static List<Object> query(String sql, Object... parameters) throws SQLException {
        try (Connection database = E2eDatabase.connect()) {
            return E2eQueries.list(database, sql, parameters);
        }
    }

    private static void open(Page page, RunningNode node, Checkout checkout) {
        page.navigate(node.uri("operations/" + checkout.operationId()).toString());
        assertThat(page.locator("#operation-status-panel")).isVisible();
    }

    /** The grid cell whose whole text is {@code text}. */
    private static Locator cell(Locator grid, String text) {
        return grid.getByText(text, new Locator.GetByTextOptions().setExact(true));
    }
}

package dev.opledger.e2e.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.claim.ApprovalOutcome;
import dev.opledger.claim.ApprovalService;
import dev.opledger.e2e.mcp.ReferenceToolsFixture;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.testing.TestTokens;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.effect.Effect;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A checkout submitted through the API runs on the node's workers as its graph, calling the real
 * reference tool server (in-process, {@link ReferenceToolsFixture}) over MCP; every assertion
 * counts the effects the server committed to {@code reference_tools.effect_log}.
 *
 * <p>The node's workers lease every ACCEPTED operation of the test database: the context is
 * closed after this class, so they never run another class's operations.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                // this module's class path holds Vaadin without its dev mode, nor the console's
                // frontend bundle: the node runs without the console (the API is what is tested)
                "spring.autoconfigure.exclude=com.vaadin.flow.spring.SpringBootAutoConfiguration,"
                        + "com.vaadin.flow.spring.SpringSecurityAutoConfiguration,com.vaadin.flow.spring.VaadinScopesConfig",
                "opledger.worker.enabled=true",
                "opledger.worker.poll-interval=50ms",
                "opledger.effects.backoff=10ms"})
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
@DirtiesContext
class CheckoutIT {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final Set<String> AT_REST = Set.of("SUCCEEDED", "FAILED", "NEEDS_REVIEW", "AWAITING_APPROVAL",
            "CANCELLED");

    @DynamicPropertySource
    static void referenceTools(DynamicPropertyRegistry registry) {
        registry.add("opledger.mcp.servers.reference.url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers.reference.timeout", () -> "10s");
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    /** The console's façade: a person's decision is role-checked and audited (issue 8). */
    @Autowired
    ApprovalService approvals;

    private final ReferenceToolsServer tools = ReferenceToolsFixture.server();
    private final String subject = "checkout-" + UUID.randomUUID();

    @AfterEach
    void clearFaults() {
        tools.faults().clear();
        SecurityContextHolder.clearContext();
    }

    private static void signedInAs(String name, String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                name, null, AuthorityUtils.createAuthorityList(authority)));
    }

    /** Submits through the API; the node answers 202 before any step ran. */
    private UUID submit(String arguments) {
        UUID operationId = UUID.randomUUID();
        var response = ApiClient.onPort(port).submit(TestTokens.forSubject(subject), operationId.toString(),
                ApiClient.command("checkout", arguments));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return operationId;
    }

    private String apiStatus(UUID operationId) {
        var response = ApiClient.onPort(port).get(TestTokens.forSubject(subject), "/v1/operations/" + operationId);
        return ApiClient.json(response).get("status").asString();
    }

    /** Waits until the operation stopped moving; returns its status as the API shows it. */
    private String awaitRest(UUID operationId) {
        await("operation " + operationId + " at rest").atMost(RUN_TIMEOUT)
                .until(() -> AT_REST.contains(apiStatus(operationId)));
        return apiStatus(operationId);
    }

    /** Cancels through the API, as the app would. */
    private java.net.http.HttpResponse<String> cancel(UUID operationId) {
        return ApiClient.onPort(port).cancel(TestTokens.forSubject(subject), operationId.toString());
    }

    private Map<String, Object> cancelRecord(UUID operationId) {
        return jdbc.queryForMap("SELECT c.resolution, c.resolution_step, c.resolution_tool, c.acknowledged_by "
                + "FROM operation_cancel c WHERE c.operation_ref = ?", ref(operationId));
    }

    /** The operation's events from the first cancel event on, {@code type[:tool@step]}. */
    private List<String> eventsFromTheCancel(UUID operationId) {
        return jdbc.query("SELECT type, tool, step_key FROM outbox_event WHERE operation_id = ? AND sequence >= "
                        + "(SELECT sequence FROM outbox_event WHERE operation_id = ? AND type = 'CancelRequested') "
                        + "ORDER BY sequence",
                (row, n) -> row.getString(1) + (row.getString(2) == null ? "" : ":" + row.getString(2) + "@"
                        + row.getString(3)), operationId, operationId);
    }

    private void awaitEffectStarted(UUID operationId, String step) {
        await(step + " in flight").atMost(RUN_TIMEOUT).until(() -> records(operationId).stream()
                .anyMatch(row -> step.equals(row.get("step_key")) && "STARTED".equals(row.get("status"))));
    }

    private String reason(UUID operationId) {
        return jdbc.queryForObject("SELECT status_reason FROM operation WHERE operation_id = ?", String.class, operationId);
    }

    private long ref(UUID operationId) {
        return jdbc.queryForObject("SELECT id FROM operation WHERE operation_id = ?", Long.class, operationId);
    }

    /** The real effects of the operation, as the tool server committed them: {@code tool@stepKey}. */
    private List<String> effects(UUID operationId) {
        return tools.effects().ofOperation(operationId.toString()).stream()
                .map(effect -> effect.tool() + "@" + effect.stepKey()).toList();
    }

    private List<Map<String, Object>> records(UUID operationId) {
        return jdbc.queryForList("SELECT step_key, tool, repeat_class, status, calls FROM effect_record "
                + "WHERE operation_ref = ? ORDER BY started_at", ref(operationId));
    }

    private static String full(String amount) {
        return "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":2,\"amount\":" + amount + ",\"currency\":\"EUR\","
                + "\"recipient\":\"ann@example.com\",\"loyaltyAccount\":\"ann-" + UUID.randomUUID() + "\","
                + "\"shippingAddress\":\"1 Main St\"}";
    }

    @Test
    void aCheckoutRunsEveryStepOnceAndSucceeds() {
        UUID operation = submit(full("49.90"));

        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve", "capture_payment@capture",
                "adjust_points@points", "set_shipping_address@shipping", "send_message@receipt");
        assertThat(records(operation)).extracting(row -> row.get("step_key") + ":" + row.get("status") + ":" + row.get("calls"))
                .containsExactly("reserve:SUCCEEDED:1", "capture:SUCCEEDED:1", "points:SUCCEEDED:1",
                        "shipping:SUCCEEDED:1", "receipt:SUCCEEDED:1");
        String paymentId = tools.effects().ofOperation(operation.toString()).stream()
                .filter(effect -> effect.tool().equals("capture_payment")).map(Effect::resultId).findFirst().orElseThrow();
        assertThat(jdbc.queryForMap("SELECT recipient, body FROM reference_tools.message WHERE operation_id = ?",
                operation.toString()))
                .containsEntry("recipient", "ann@example.com")
                .satisfies(message -> assertThat((String) message.get("body")).contains("49.90 EUR").contains(paymentId));
    }

    @Test
    void theMinimalCheckoutReservesCapturesAndSendsTheReceiptOnly() {
        UUID operation = submit("{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":49.90,\"currency\":\"EUR\","
                + "\"recipient\":\"ann@example.com\"}");

        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve", "capture_payment@capture",
                "send_message@receipt");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "reserve_inventory,    reserve,  KEYED",
            "capture_payment,      capture,  KEYED",
            "adjust_points,        points,   CHECK_THEN_WRITE",
            "set_shipping_address, shipping, IDEMPOTENT"})
    void aLostResponseOfARepeatableToolConvergesOnOneEffect(String tool, String step, String repeatClass) {
        tools.faults().inject(tool, "drop-response*1");

        UUID operation = submit(full("49.90"));

        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve", "capture_payment@capture",
                "adjust_points@points", "set_shipping_address@shipping", "send_message@receipt");
        assertThat(records(operation)).filteredOn(row -> step.equals(row.get("step_key"))).singleElement()
                .satisfies(row -> {
                    assertThat(row).containsEntry("repeat_class", repeatClass).containsEntry("status", "SUCCEEDED");
                    // check-then-write found the adjustment with get_points and did not write again
                    assertThat(row.get("calls")).isEqualTo(repeatClass.equals("CHECK_THEN_WRITE") ? 1 : 2);
                });
    }

    @Test
    void aLostReceiptParksTheOperationForReviewHavingSentTheMessageOnce() {
        tools.faults().inject("send_message", "drop-response*1");

        UUID operation = submit(full("49.90"));

        assertThat(awaitRest(operation)).isEqualTo("NEEDS_REVIEW");
        assertThat(reason(operation)).startsWith("receipt: ").contains("never-repeat tool reference/send_message")
                .contains("it may have run");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve", "capture_payment@capture",
                "adjust_points@points", "set_shipping_address@shipping", "send_message@receipt");
        assertThat(records(operation)).last().satisfies(row -> assertThat(row)
                .containsEntry("step_key", "receipt").containsEntry("status", "STARTED").containsEntry("calls", 1));
    }

    @Test
    void anAmountOverTheLimitWaitsForApprovalAndCapturesOnceAfterIt() {
        UUID operation = submit(full("750.00"));

        assertThat(awaitRest(operation)).isEqualTo("AWAITING_APPROVAL");
        assertThat(reason(operation)).isEqualTo("amount 750.00 over limit 500.00");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve");

        signedInAs("admin", "ROLE_ADMIN");
        assertThat(approvals.approve(new SubjectId(subject), new OperationId(operation), "known customer"))
                .isInstanceOf(ApprovalOutcome.Decided.class);

        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve", "capture_payment@capture",
                "adjust_points@points", "set_shipping_address@shipping", "send_message@receipt");
        assertThat(records(operation)).extracting(row -> row.get("step_key") + ":" + row.get("calls"))
                .containsExactly("reserve:1", "capture:1", "points:1", "shipping:1", "receipt:1");
        assertThat(jdbc.queryForObject("SELECT run_count FROM operation WHERE operation_id = ?", Integer.class, operation))
                .as("the approval step ran again in a second run").isEqualTo(2);
    }

    @Test
    void aRejectedCheckoutReleasesItsReservationOnceAndFailsWithTheReason() {
        UUID operation = submit(full("750.00"));
        assertThat(awaitRest(operation)).isEqualTo("AWAITING_APPROVAL");

        signedInAs("support", "ROLE_SUPPORT");
        assertThat(approvals.reject(new SubjectId(subject), new OperationId(operation), "card looks stolen"))
                .isInstanceOf(ApprovalOutcome.Decided.class);

        await().atMost(RUN_TIMEOUT).until(() -> "FAILED".equals(apiStatus(operation)));
        assertThat(reason(operation)).isEqualTo("rejected by support: card looks stolen");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve", "release_inventory@release");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM reference_tools.payment WHERE operation_id = ?",
                Long.class, operation.toString())).isZero();
    }

    @Test
    void aToolsRefusalFailsTheCheckoutWithTheReasonAndCallsNothingAfterIt() {
        UUID operation = submit("{\"sku\":\"SKU-MUG\",\"quantity\":5,\"amount\":60.00,\"currency\":\"EUR\","
                + "\"recipient\":\"ann@example.com\",\"loyaltyAccount\":\"ann\"}");

        assertThat(awaitRest(operation)).isEqualTo("FAILED");
        assertThat(reason(operation)).isEqualTo("reserve: reserve_inventory refused: not enough stock of 'SKU-MUG' for 5");
        assertThat(effects(operation)).isEmpty();
        assertThat(records(operation)).extracting(row -> row.get("step_key") + ":" + row.get("status"))
                .containsExactly("reserve:FAILED");
    }

    @Test
    void aCancelDuringAnEffectLetsThatEffectLandCallsNothingAfterItAndSaysWhichLanded() {
        tools.faults().inject("capture_payment", "delay:1500*1");
        UUID operation = submit(full("49.90"));
        awaitEffectStarted(operation, "capture");

        var pending = cancel(operation);

        assertThat(pending.statusCode()).as(pending.body()).isEqualTo(202);
        assertThat(ApiClient.json(pending).get("cancel").get("state").asString()).isEqualTo("requested");
        assertThat(awaitRest(operation)).isEqualTo("CANCELLED");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve", "capture_payment@capture");
        assertThat(cancelRecord(operation)).containsEntry("resolution", "EFFECT_COMMITTED_ANYWAY")
                .containsEntry("resolution_step", "capture").containsEntry("resolution_tool", "capture_payment");
        assertThat(eventsFromTheCancel(operation)).containsExactly("CancelRequested",
                "AgentToolCompleted:capture_payment@capture", "CancelAcknowledged",
                "CancelEffectCommitted:capture_payment@capture", "OperationCancelled");
        var repeat = cancel(operation);
        assertThat(repeat.statusCode()).isEqualTo(200);
        assertThat(ApiClient.json(repeat).get("cancel").get("resolution").asString()).isEqualTo("EFFECT_COMMITTED_ANYWAY");
    }

    @Test
    void aCancelWhileTheGiftIsWrappedCancelsTheDownstreamTaskAndNoWrapIsMade() {
        UUID operation = submit("{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":12.50,\"currency\":\"EUR\","
                + "\"recipient\":\"ann@example.com\",\"giftWrap\":true}");
        // wrap_gift takes 3 s here: its server answered with a task, whose handle the node follows
        await("the handle of wrap_gift's task").atMost(RUN_TIMEOUT).until(() -> !jdbc.queryForList(
                "SELECT 1 FROM effect_record WHERE operation_ref = ? AND step_key = 'wrap' AND status = 'STARTED'"
                        + " AND task_id IS NOT NULL", ref(operation)).isEmpty());

        var pending = cancel(operation);
        var repeat = cancel(operation);

        assertThat(pending.statusCode()).as(pending.body()).isEqualTo(202);
        assertThat(repeat.statusCode()).as(repeat.body()).isEqualTo(202);
        assertThat(awaitRest(operation)).isEqualTo("CANCELLED");
        assertThat(effects(operation)).as("the tool server's effect log: no wrap, nothing after it")
                .containsExactly("reserve_inventory@reserve", "capture_payment@capture");
        assertThat(cancelRecord(operation)).containsEntry("resolution", "STOPPED");
        Map<String, Object> wrap = jdbc.queryForMap("SELECT status, task_id, task_status, task_cancel_sent_at "
                + "FROM effect_record WHERE operation_ref = ? AND step_key = 'wrap'", ref(operation));
        assertThat(wrap).containsEntry("status", "FAILED").containsEntry("task_status", "cancelled");
        assertThat(wrap.get("task_cancel_sent_at")).as("when tasks/cancel was sent").isNotNull();
        assertThat(tools.tasks().ofStep(operation.toString(), "wrap")).as("the downstream task").singleElement()
                .satisfies(task -> assertThat(task.status()).isEqualTo("cancelled"));
        // past the 3 s the wrap would have taken, still none
        await("no wrap after its time").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> tools.effects().count("wrap_gift", operation.toString(), "wrap") == 0);
    }

    @Test
    void aCancelWhileANeverRepeatCallsAnswerIsLostEndsInReviewNamingTheCall() {
        tools.faults().inject("send_message", "delay:1500*1, drop-response*1");
        UUID operation = submit(full("49.90"));
        awaitEffectStarted(operation, "receipt");

        assertThat(cancel(operation).statusCode()).isEqualTo(202);

        assertThat(awaitRest(operation)).isEqualTo("NEEDS_REVIEW");
        assertThat(cancelRecord(operation)).containsEntry("resolution", "NEEDS_REVIEW")
                .containsEntry("resolution_step", "receipt").containsEntry("resolution_tool", "send_message");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM reference_tools.message WHERE operation_id = ?", Long.class,
                operation.toString())).as("the receipt was sent once").isEqualTo(1);
    }

    @Test
    void aCancelWhileAwaitingApprovalCancelsAtOnceAndNothingRunsAfterIt() {
        UUID operation = submit(full("750.00"));
        assertThat(awaitRest(operation)).isEqualTo("AWAITING_APPROVAL");

        var cancelled = cancel(operation);

        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(ApiClient.json(cancelled).get("status").asString()).isEqualTo("CANCELLED");
        assertThat(cancelRecord(operation)).containsEntry("resolution", "STOPPED").containsEntry("acknowledged_by", "ledger");
        signedInAs("support", "ROLE_SUPPORT");
        assertThat(approvals.approve(new SubjectId(subject), new OperationId(operation), "too late"))
                .isInstanceOf(ApprovalOutcome.NotAwaitingApproval.class);
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve");
        assertThat(jdbc.queryForObject("SELECT run_count FROM operation WHERE operation_id = ?", Integer.class, operation))
                .as("no worker ran it again").isEqualTo(1);
    }

    @Test
    void aCancelAfterTheEndIsAnsweredAndChangesNothing() {
        UUID operation = submit(full("49.90"));
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        Long events = jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE operation_id = ?", Long.class, operation);

        var answered = cancel(operation);

        assertThat(answered.statusCode()).isEqualTo(200);
        assertThat(ApiClient.json(answered).get("status").asString()).isEqualTo("SUCCEEDED");
        assertThat(ApiClient.json(answered).has("cancel")).isFalse();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE operation_id = ?", Long.class, operation))
                .isEqualTo(events);
        assertThat(effects(operation)).hasSize(5);
    }
}

package dev.opledger.e2e.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.e2e.mcp.ReferenceToolsFixture;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.replay.DryRunOutcome;
import dev.opledger.replay.ReplayService;
import dev.opledger.replay.ReplayStartOutcome;
import dev.opledger.review.ReviewOutcome;
import dev.opledger.review.ReviewService;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.fault.Faults;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
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
 * The checkout's compensations (issue 12, "give up … compensations run as the graph defines"): a
 * step that fails after the reservation refunds the payment when one was captured and releases
 * the reservation, each once, and the operation ends FAILED with the original failure. Every
 * assertion about effects counts what the real reference tool server committed to its effect log.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "spring.autoconfigure.exclude=com.vaadin.flow.spring.SpringBootAutoConfiguration,"
                        + "com.vaadin.flow.spring.SpringSecurityAutoConfiguration,com.vaadin.flow.spring.VaadinScopesConfig",
                "opledger.worker.enabled=true",
                "opledger.worker.poll-interval=50ms",
                "opledger.effects.backoff=10ms"})
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
@DirtiesContext
class CompensationIT {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final Set<String> AT_REST = Set.of("SUCCEEDED", "FAILED", "NEEDS_REVIEW", "AWAITING_APPROVAL",
            "CANCELLED");
    private static final List<String> GIVEN_UP_RECEIPT = List.of("reserve_inventory@reserve", "capture_payment@capture",
            "adjust_points@points", "set_shipping_address@shipping", "send_message@receipt", "refund_payment@refund",
            "release_inventory@release");

    @DynamicPropertySource
    static void referenceTools(DynamicPropertyRegistry registry) {
        registry.add("opledger.mcp.servers.reference.url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers.reference.timeout", () -> "10s");
        // every receipt of this class's node is lost (each test gives it up in review): as a header
        // of this node's calls, not a standing fault of the tool server, which this JVM's other
        // nodes share — a CI run saw one of them take a standing drop-response*1 meant for this class
        registry.add("opledger.mcp.servers.reference.headers." + Faults.HEADER, () -> "send_message=drop-response");
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ReviewService reviews;

    @Autowired
    ReplayService replays;

    private final ReferenceToolsServer tools = ReferenceToolsFixture.server();
    private final String subject = "compensate-" + UUID.randomUUID();

    @AfterEach
    void clear() {
        tools.faults().clear();
        SecurityContextHolder.clearContext();
    }

    @Test
    void aRefusedCaptureReleasesTheReservationOnceAndFailsWithTheCapturesReason() {
        long before = onHand("SKU-ESPRESSO");
        tools.faults().inject("capture_payment", "fail*1");

        UUID operation = submit(full("49.90"));

        assertThat(awaitRest(operation)).isEqualTo("FAILED");
        assertThat(reason(operation))
                .isEqualTo("capture: capture_payment refused: injected fault: capture_payment failed before doing anything");
        assertThat(effects(operation)).containsExactly("reserve_inventory@reserve", "release_inventory@release");
        assertThat(records(operation)).containsExactly("reserve:SUCCEEDED:1", "capture:FAILED:1", "release:SUCCEEDED:1");
        assertThat(onHand("SKU-ESPRESSO")).as("the stock is back").isEqualTo(before);
        assertThat(lastState(operation, "failure")).isEqualTo("{\"step\": \"capture\", \"reason\": \""
                + reason(operation) + "\"}");
        assertThat(lastState(operation, "release")).as("the release's own result, recorded").contains("releaseId");
    }

    @Test
    void aReceiptGivenUpInReviewAfterTheCaptureRefundsAndReleasesOnceAndFails() {
        UUID operation = givenUpReceipt();

        assertThat(reason(operation)).isEqualTo("receipt: send_message given up by support: customer cancelled by phone");
        assertThat(effects(operation)).isEqualTo(GIVEN_UP_RECEIPT);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM reference_tools.payment_refund r JOIN reference_tools.payment p"
                + " USING (payment_id) WHERE p.operation_id = ? AND r.amount = p.amount", Long.class, operation.toString()))
                .as("the whole payment back, once").isEqualTo(1);
        assertThat(records(operation)).containsExactly("reserve:SUCCEEDED:1", "capture:SUCCEEDED:1", "points:SUCCEEDED:1",
                "shipping:SUCCEEDED:1", "receipt:FAILED:1", "refund:SUCCEEDED:1", "release:SUCCEEDED:1");
        assertThat(nextNodes(operation)).as("the compensation is in the checkpoints, after the given-up receipt")
                .endsWith("receipt>refund", "refund>release", "release>__END__");
    }

    @Test
    void lostAnswersOfTheCompensationsAreCalledAgainWithTheirKeysWithoutASecondRefundOrRelease() {
        tools.faults().inject("refund_payment", "drop-response*1");
        tools.faults().inject("release_inventory", "drop-response*1");

        UUID operation = givenUpReceipt();

        assertThat(effects(operation)).isEqualTo(GIVEN_UP_RECEIPT);
        assertThat(records(operation)).endsWith("refund:SUCCEEDED:2", "release:SUCCEEDED:2");
    }

    @Test
    void aReplayFromBeforeALandedCompensationIsRefusedAndChangesNothing() {
        UUID operation = givenUpReceipt();
        signedInAs("admin", "ROLE_ADMIN");
        // before the receipt a replay could send it and end SUCCEEDED on a refunded payment and
        // released stock; before the refund it would serve both from their records: either way
        // it would go on from what the compensations undid
        for (String next : List.of("receipt", "refund")) {
            UUID checkpoint = jdbc.queryForObject("SELECT checkpoint_id FROM graph_checkpoint WHERE thread_id = ? "
                    + "AND next_node_id = ?", UUID.class, operation, next);

            var dryRun = replays.dryRun(new SubjectId(subject), new OperationId(operation), checkpoint);
            assertThat(dryRun).as("from before " + next).isInstanceOfSatisfying(DryRunOutcome.NotReplayable.class,
                    refused -> assertThat(refused.why()).startsWith("its compensation refund (refund_payment) ran"));
            assertThat(replays.start(new SubjectId(subject), new OperationId(operation), checkpoint, "any digest",
                    List.of("receipt"))).as("from before " + next)
                    .isInstanceOf(ReplayStartOutcome.NotReplayable.class);
        }

        assertThat(awaitRest(operation)).isEqualTo("FAILED");
        assertThat(effects(operation)).as("no second refund, no second release").isEqualTo(GIVEN_UP_RECEIPT);
        assertThat(records(operation)).endsWith("refund:SUCCEEDED:1", "release:SUCCEEDED:1");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM operation_replay r JOIN operation o ON o.id = r.operation_ref"
                + " WHERE o.operation_id = ?", Long.class, operation)).as("no replay started").isZero();
    }

    // --- helpers

    /** A checkout whose receipt's answer was lost, given up by support in review: at rest, FAILED. */
    private UUID givenUpReceipt() {
        UUID operation = submit(full("49.90"));
        assertThat(awaitRest(operation)).isEqualTo("NEEDS_REVIEW");
        signedInAs("support", "ROLE_SUPPORT");
        UnknownEffect unknown = reviews.unknownEffect(new SubjectId(subject), new OperationId(operation)).orElseThrow();
        assertThat(reviews.resolve(new SubjectId(subject), new OperationId(operation), unknown.stepKey(),
                unknown.startedAt(), EffectResolution.GIVEN_UP, "customer cancelled by phone"))
                .isInstanceOf(ReviewOutcome.Resolved.class);
        SecurityContextHolder.clearContext();
        assertThat(awaitRest(operation)).isEqualTo("FAILED");
        return operation;
    }

    private static void signedInAs(String name, String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                name, null, AuthorityUtils.createAuthorityList(authority)));
    }

    private UUID submit(String arguments) {
        return InProcessCheckouts.submit(port, subject, arguments);
    }

    private String status(UUID operationId) {
        return jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class, operationId);
    }

    private String awaitRest(UUID operationId) {
        // a review's resolution makes it ACCEPTED in the same transaction: never at rest in between
        await("operation " + operationId + " at rest").atMost(RUN_TIMEOUT).pollDelay(Duration.ofMillis(100))
                .until(() -> AT_REST.contains(status(operationId)));
        return status(operationId);
    }

    private String reason(UUID operationId) {
        return jdbc.queryForObject("SELECT status_reason FROM operation WHERE operation_id = ?", String.class, operationId);
    }

    private long onHand(String sku) {
        return jdbc.queryForObject("SELECT on_hand FROM reference_tools.product WHERE sku = ?", Long.class, sku);
    }

    private List<String> effects(UUID operationId) {
        return InProcessCheckouts.effects(tools, operationId);
    }

    /** {@code step:status:calls} of the operation's effect records, in the order they started. */
    private List<String> records(UUID operationId) {
        return jdbc.query("SELECT step_key, status, calls FROM effect_record WHERE operation_ref = "
                        + "(SELECT id FROM operation WHERE operation_id = ?) ORDER BY started_at",
                (row, n) -> row.getString(1) + ":" + row.getString(2) + ":" + row.getInt(3), operationId);
    }

    /** {@code node>next} of every checkpoint of the operation's thread, in order. */
    private List<String> nextNodes(UUID operationId) {
        return jdbc.query("SELECT node_id, next_node_id FROM graph_checkpoint WHERE thread_id = ? ORDER BY seq",
                (row, n) -> row.getString(1) + ">" + row.getString(2), operationId);
    }

    /** A value in the thread's last checkpoint's state, as JSON text. */
    private String lastState(UUID operationId, String key) {
        return jdbc.queryForObject("SELECT state -> ? FROM graph_checkpoint WHERE thread_id = ? "
                + "ORDER BY seq DESC LIMIT 1", String.class, key, operationId);
    }

    private static String full(String amount) {
        return InProcessCheckouts.full(amount);
    }
}

package dev.opledger.e2e.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.claim.ApprovalOutcome;
import dev.opledger.claim.ApprovalService;
import dev.opledger.e2e.mcp.ReferenceToolsFixture;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.replay.DryRunOutcome;
import dev.opledger.replay.PlannedEffect;
import dev.opledger.replay.ReplayAction;
import dev.opledger.replay.ReplayPlan;
import dev.opledger.replay.ReplayService;
import dev.opledger.replay.ReplayStartOutcome;
import dev.opledger.review.ReviewOutcome;
import dev.opledger.review.ReviewService;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.tools.ReferenceToolsServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * Replay from a checkpoint (issue 12) on the node's workers with the real checkout graph and the
 * real reference tool server: every assertion about effects counts what the tool server committed
 * to its own effect log ({@code reference_tools.effect_log}), never the ledger's records alone.
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
class ReplayIT {

    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final Set<String> AT_REST = Set.of("SUCCEEDED", "FAILED", "NEEDS_REVIEW", "AWAITING_APPROVAL",
            "CANCELLED");
    private static final List<String> ALL_FIVE = List.of("reserve_inventory@reserve", "capture_payment@capture",
            "adjust_points@points", "set_shipping_address@shipping", "send_message@receipt");

    @DynamicPropertySource
    static void referenceTools(DynamicPropertyRegistry registry) {
        registry.add("opledger.mcp.servers.reference.url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers.reference.timeout", () -> "10s");
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ReplayService replays;

    @Autowired
    ApprovalService approvals;

    @Autowired
    ReviewService reviews;

    private final ReferenceToolsServer tools = ReferenceToolsFixture.server();
    private final String subject = "replay-" + UUID.randomUUID();

    @AfterEach
    void clear() {
        tools.faults().clear();
        SecurityContextHolder.clearContext();
    }

    @Test
    void aReplayOfASucceededCheckoutFromItsFirstCheckpointServesEveryEffectFromItsRecordAndCallsNoTool() {
        UUID operation = submit(full("49.90"));
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        List<UUID> before = checkpoints(operation);
        signedInAs("support", "ROLE_SUPPORT");

        ReplayPlan plan = dryRun(operation, before.getFirst());

        assertThat(plan.effects()).extracting(e -> e.stepKey() + ":" + e.tool() + ":" + e.repeatClass() + ":" + e.action())
                .containsExactly("reserve:reserve_inventory:KEYED:SERVED", "capture:capture_payment:KEYED:SERVED",
                        "points:adjust_points:CHECK_THEN_WRITE:SERVED",
                        "shipping:set_shipping_address:IDEMPOTENT:SERVED", "receipt:send_message:NEVER_REPEAT:SERVED");
        assertThat(plan.blocked()).isEmpty();
        assertThat(plan.approvalAskedAgain()).isEmpty();

        signedInAs("admin", "ROLE_ADMIN");
        var started = replays.start(new SubjectId(subject), new OperationId(operation), before.getFirst(),
                plan.digest(), List.of());

        assertThat(started).isInstanceOf(ReplayStartOutcome.Started.class);
        UUID fork = ((ReplayStartOutcome.Started) started).forkCheckpoint();
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).as("the tool server's effect log: not one second effect").isEqualTo(ALL_FIVE);
        assertThat(records(operation)).extracting(row -> row.get("step_key") + ":" + row.get("status") + ":" + row.get("calls"))
                .containsExactly("reserve:SUCCEEDED:1", "capture:SUCCEEDED:1", "points:SUCCEEDED:1",
                        "shipping:SUCCEEDED:1", "receipt:SUCCEEDED:1");
        // the original history is intact and the fork hangs off the chosen checkpoint
        List<UUID> after = checkpoints(operation);
        assertThat(after.subList(0, before.size())).isEqualTo(before);
        assertThat(after.get(before.size())).isEqualTo(fork);
        assertThat(jdbc.queryForObject("SELECT parent_id FROM graph_checkpoint WHERE checkpoint_id = ?", UUID.class, fork))
                .isEqualTo(before.getFirst());
        assertThat(after).hasSize(2 * before.size());
        assertThat(events(operation)).containsSubsequence("OperationSucceeded", "ReplayStarted", "OperationRunning",
                "OperationSucceeded");
        assertThat(audit(operation)).containsExactly("support:REPLAY_DRY_RUN", "admin:REPLAY_STARTED");
    }

    @Test
    void unknownOutcomesOfAKeyedAndACheckThenWriteToolAreCalledAgainAsTheirClassAllowsWithoutASecondEffect() {
        UUID operation = submit(full("49.90"));
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        // as lost answers leave them: the capture's and the points' records STARTED (outcome unknown)
        assertThat(jdbc.update("UPDATE effect_record SET status = 'STARTED', result = NULL, finished_at = NULL "
                + "WHERE operation_ref = ? AND step_key IN ('capture', 'points')", ref(operation))).isEqualTo(2);
        jdbc.update("UPDATE operation SET status = 'NEEDS_REVIEW', status_reason = 'answers lost' WHERE id = ?",
                ref(operation));
        signedInAs("admin", "ROLE_ADMIN");
        UUID first = checkpoints(operation).getFirst();

        ReplayPlan plan = dryRun(operation, first);

        assertThat(plan.effects()).extracting(e -> e.stepKey() + ":" + e.recorded() + ":" + e.action())
                .containsExactly("reserve:SUCCEEDED:SERVED", "capture:STARTED:CALLED", "points:STARTED:CALLED",
                        "shipping:SUCCEEDED:SERVED", "receipt:SUCCEEDED:SERVED");
        assertThat(replays.start(new SubjectId(subject), new OperationId(operation), first, plan.digest(), List.of()))
                .isInstanceOf(ReplayStartOutcome.Started.class);
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).as("the key answered the first capture, the check found the points: no second"
                + " effect").isEqualTo(ALL_FIVE);
        assertThat(records(operation)).extracting(row -> row.get("step_key") + ":" + row.get("status") + ":" + row.get("calls"))
                .as("the capture called once more with its key; the points checked, not written")
                .containsExactly("reserve:SUCCEEDED:1", "capture:SUCCEEDED:2", "points:SUCCEEDED:1",
                        "shipping:SUCCEEDED:1", "receipt:SUCCEEDED:1");
    }

    @Test
    void aReservationTheToolRefusedIsCalledAgainWithItsKeyOnReplayAndTheCheckoutSucceeds() {
        // the reservation, not the capture: a refused capture is compensated (its reservation
        // released, docs/graph.md#compensations), and a replay from before a landed compensation is refused (CompensationIT)
        tools.faults().inject("reserve_inventory", "fail*1");
        UUID operation = submit(full("49.90"));
        assertThat(awaitRest(operation)).isEqualTo("FAILED");
        assertThat(effects(operation)).isEmpty();
        signedInAs("admin", "ROLE_ADMIN");
        UUID beforeReserve = checkpoints(operation).getFirst();

        ReplayPlan plan = dryRun(operation, beforeReserve);

        assertThat(plan.effects()).extracting(e -> e.stepKey() + ":" + e.recorded() + ":" + e.action())
                .containsExactly("reserve:FAILED:CALLED");
        assertThat(replays.start(new SubjectId(subject), new OperationId(operation), beforeReserve, plan.digest(),
                List.of())).isInstanceOf(ReplayStartOutcome.Started.class);
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).isEqualTo(ALL_FIVE);
        assertThat(jdbc.queryForObject("SELECT idempotency_key FROM effect_record WHERE operation_ref = ? "
                + "AND step_key = 'reserve'", String.class, ref(operation))).isEqualTo(operation + ":reserve");
    }

    @Test
    void aReceiptWhoseOutcomeIsUnknownIsBlockedAndTheReplayStopsBeforeItWithoutSendingAgain() {
        UUID operation = lostReceipt();
        signedInAs("admin", "ROLE_ADMIN");
        UUID first = checkpoints(operation).getFirst();

        ReplayPlan plan = dryRun(operation, first);

        assertThat(plan.blocked()).extracting(PlannedEffect::stepKey).containsExactly("receipt");
        assertThat(plan.blocked().getFirst().why()).contains("never-repeat");
        assertThat(replays.start(new SubjectId(subject), new OperationId(operation), first, plan.digest(), List.of()))
                .isInstanceOf(ReplayStartOutcome.Started.class);
        await().atMost(RUN_TIMEOUT).until(() -> events(operation).lastIndexOf("ReplayStarted")
                < events(operation).lastIndexOf("OperationNeedsReview"));
        assertThat(status(operation)).isEqualTo("NEEDS_REVIEW");
        assertThat(reason(operation)).contains("the replay stops before step receipt").contains("no one acknowledged it");
        assertThat(effects(operation)).as("one message, the one whose answer was lost").isEqualTo(ALL_FIVE);

        // the person then says it landed: the run goes on without sending it
        UnknownEffect unknown = reviews.unknownEffect(new SubjectId(subject), new OperationId(operation)).orElseThrow();
        assertThat(reviews.resolve(new SubjectId(subject), new OperationId(operation), unknown.stepKey(),
                unknown.startedAt(), EffectResolution.LANDED, "in the customer's inbox"))
                .isInstanceOf(ReviewOutcome.Resolved.class);
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).isEqualTo(ALL_FIVE);
    }

    @Test
    void twoAdminsReplayingAtOnceStartOneReplayAndTheAcknowledgedReceiptIsSentOnceMore() throws Exception {
        UUID operation = lostReceipt();
        signedInAs("admin", "ROLE_ADMIN");
        UUID first = checkpoints(operation).getFirst();
        ReplayPlan plan = dryRun(operation, first);
        var ready = new CountDownLatch(2);
        var go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<ReplayStartOutcome>> outcomes = new ArrayList<>();
        try {
            for (String admin : List.of("alice", "bob")) {
                outcomes.add(pool.submit(() -> {
                    signedInAs(admin, "ROLE_ADMIN");
                    ready.countDown();
                    go.await();
                    return replays.start(new SubjectId(subject), new OperationId(operation), first, plan.digest(),
                            List.of("receipt"));
                }));
            }
            ready.await();
            go.countDown();
            List<ReplayStartOutcome> answers = new ArrayList<>();
            for (var outcome : outcomes) {
                answers.add(outcome.get());
            }
            assertThat(answers).filteredOn(ReplayStartOutcome.Started.class::isInstance).hasSize(1);
            assertThat(answers).filteredOn(ReplayStartOutcome.AlreadyReplaying.class::isInstance).hasSize(1);
        } finally {
            pool.shutdownNow();
        }

        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(tools.effects().count("send_message", operation.toString(), "receipt"))
                .as("the lost one and the one acknowledged, once").isEqualTo(2);
        assertThat(tools.effects().count("capture_payment", operation.toString(), "capture")).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM operation_replay WHERE operation_ref = ?", Long.class,
                ref(operation))).isEqualTo(1);
        assertThat(audit(operation)).filteredOn(row -> row.endsWith(":REPLAY_ACKNOWLEDGED_EFFECT")).hasSize(1);
        assertThat(jdbc.queryForObject("SELECT detail FROM console_audit WHERE target = ? AND action = "
                + "'REPLAY_ACKNOWLEDGED_EFFECT'", String.class, operation.toString()))
                .contains("takes responsibility for a possible second effect of send_message (step receipt");
    }

    @Test
    void supportSeesTheDryRunButCannotStartAndAStaleDryRunIsRefused() {
        UUID operation = lostReceipt();
        signedInAs("support", "ROLE_SUPPORT");
        UUID first = checkpoints(operation).getFirst();
        ReplayPlan plan = dryRun(operation, first);
        long eventsBefore = events(operation).size();

        assertThat(replays.start(new SubjectId(subject), new OperationId(operation), first, plan.digest(),
                List.of("receipt"))).isInstanceOf(ReplayStartOutcome.NotAllowed.class);
        assertThat(status(operation)).isEqualTo("NEEDS_REVIEW");
        assertThat(events(operation)).hasSize((int) eventsBefore);

        // the records change (a person resolves the receipt) after the dry run: its plan is stale
        UnknownEffect unknown = reviews.unknownEffect(new SubjectId(subject), new OperationId(operation)).orElseThrow();
        reviews.resolve(new SubjectId(subject), new OperationId(operation), unknown.stepKey(), unknown.startedAt(),
                EffectResolution.LANDED, "in the inbox");
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        signedInAs("admin", "ROLE_ADMIN");

        var stale = replays.start(new SubjectId(subject), new OperationId(operation), first, plan.digest(),
                List.of("receipt"));

        assertThat(stale).isInstanceOfSatisfying(ReplayStartOutcome.StalePlan.class, refused -> assertThat(
                refused.current().effects()).filteredOn(e -> e.stepKey().equals("receipt")).singleElement()
                .satisfies(receipt -> assertThat(receipt.action()).isEqualTo(ReplayAction.SERVED)));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM operation_replay WHERE operation_ref = ?", Long.class,
                ref(operation))).isZero();
        assertThat(effects(operation)).isEqualTo(ALL_FIVE);
    }

    @Test
    void aReplayFromBeforeTheApprovalAsksForItAgainAndCapturesOnce() {
        UUID operation = submit(full("750.00"));
        assertThat(awaitRest(operation)).isEqualTo("AWAITING_APPROVAL");
        signedInAs("admin", "ROLE_ADMIN");
        assertThat(approvals.approve(new SubjectId(subject), new OperationId(operation), "known customer"))
                .isInstanceOf(ApprovalOutcome.Decided.class);
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        UUID first = checkpoints(operation).getFirst();

        ReplayPlan plan = dryRun(operation, first);

        assertThat(plan.approvalAskedAgain()).hasValueSatisfying(decision -> assertThat(decision.actor())
                .isEqualTo("admin"));
        assertThat(replays.start(new SubjectId(subject), new OperationId(operation), first, plan.digest(), List.of()))
                .isInstanceOf(ReplayStartOutcome.Started.class);
        assertThat(awaitRest(operation)).as("the decision is asked for again").isEqualTo("AWAITING_APPROVAL");
        assertThat(effects(operation)).isEqualTo(ALL_FIVE);

        assertThat(approvals.approve(new SubjectId(subject), new OperationId(operation), "still known"))
                .isInstanceOf(ApprovalOutcome.Decided.class);
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        assertThat(effects(operation)).as("the capture after the approval ran once, in the first run")
                .isEqualTo(ALL_FIVE);
        assertThat(jdbc.queryForObject("SELECT undone_approval->>'reason' FROM operation_replay WHERE operation_ref = ?",
                String.class, ref(operation))).isEqualTo("known customer");
    }

    @Test
    void aRunningOperationAndAnUnknownCheckpointAreRefusedReadably() {
        UUID operation = submit(full("49.90"));
        assertThat(awaitRest(operation)).isEqualTo("SUCCEEDED");
        signedInAs("support", "ROLE_SUPPORT");

        assertThat(replays.dryRun(new SubjectId(subject), new OperationId(operation), UUID.randomUUID()))
                .isInstanceOf(DryRunOutcome.CheckpointNotFound.class);
        assertThat(replays.dryRun(new SubjectId("someone-else"), new OperationId(operation),
                checkpoints(operation).getFirst())).isInstanceOf(DryRunOutcome.NotFound.class);
    }

    // --- helpers

    private ReplayPlan dryRun(UUID operation, UUID checkpoint) {
        var outcome = replays.dryRun(new SubjectId(subject), new OperationId(operation), checkpoint);
        assertThat(outcome).isInstanceOf(DryRunOutcome.Planned.class);
        return ((DryRunOutcome.Planned) outcome).plan();
    }

    /** A checkout whose receipt was sent and its answer lost: NEEDS_REVIEW, the message in the tool's log once. */
    private UUID lostReceipt() {
        tools.faults().inject("send_message", "drop-response*1");
        UUID operation = submit(full("49.90"));
        assertThat(awaitRest(operation)).isEqualTo("NEEDS_REVIEW");
        assertThat(effects(operation)).isEqualTo(ALL_FIVE);
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
        // a replay's start makes it ACCEPTED in the same transaction: never at rest in between
        await("operation " + operationId + " at rest").atMost(RUN_TIMEOUT).pollDelay(Duration.ofMillis(100))
                .until(() -> AT_REST.contains(status(operationId)));
        return status(operationId);
    }

    private String reason(UUID operationId) {
        return jdbc.queryForObject("SELECT status_reason FROM operation WHERE operation_id = ?", String.class, operationId);
    }

    private long ref(UUID operationId) {
        return jdbc.queryForObject("SELECT id FROM operation WHERE operation_id = ?", Long.class, operationId);
    }

    private List<String> effects(UUID operationId) {
        return InProcessCheckouts.effects(tools, operationId);
    }

    private List<Map<String, Object>> records(UUID operationId) {
        return jdbc.queryForList("SELECT step_key, tool, repeat_class, status, calls FROM effect_record "
                + "WHERE operation_ref = ? ORDER BY started_at", ref(operationId));
    }

    private List<UUID> checkpoints(UUID operationId) {
        return jdbc.queryForList("SELECT checkpoint_id FROM graph_checkpoint WHERE thread_id = ? ORDER BY seq",
                UUID.class, operationId);
    }

    private List<String> events(UUID operationId) {
        return jdbc.queryForList("SELECT type FROM outbox_event WHERE operation_id = ? ORDER BY sequence", String.class,
                operationId);
    }

    private List<String> audit(UUID operationId) {
        return jdbc.query("SELECT actor, action FROM console_audit WHERE target = ? ORDER BY id",
                (row, n) -> row.getString(1) + ":" + row.getString(2), operationId.toString());
    }

    private static String full(String amount) {
        return InProcessCheckouts.full(amount);
    }
}

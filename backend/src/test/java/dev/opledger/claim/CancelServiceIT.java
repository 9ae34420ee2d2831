package dev.opledger.claim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.TestGateways;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * A cancel at every stage, as the ledger records it: requested, acknowledged, and stopped or
 * committed anyway, each an outbox event; once per operation, whoever asks how often; another
 * subject's operation is not found and unchanged. The worker's side goes through the real effect
 * gateway and {@link LifecycleService#finishRun}, as a run would.
 */
@NodeIntegrationTest
class CancelServiceIT {

    private static final String NODE = "cancel-it-node";

    @Autowired
    CancelService cancels;

    @Autowired
    ApprovalService approvals;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ApplicationContext node;

    SubjectId subject;

    @BeforeEach
    void newSubject() {
        subject = new SubjectId("cancel-" + UUID.randomUUID());
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    private OperationId accepted() {
        return Operations.claim(claims, subject, 1).getFirst();
    }

    private LeasedOperation running() {
        return Operations.lease(lifecycle, NODE, accepted());
    }

    private String status(OperationId id) {
        return jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class, id.value());
    }

    /** The operation's events after its acceptance: {@code sequence:type:status[:tool@step]}. */
    private List<String> events(OperationId id) {
        return jdbc.query("SELECT sequence, type, status, tool, step_key, payload::text FROM outbox_event "
                        + "WHERE operation_id = ? ORDER BY sequence", (row, n) -> row.getInt(1) + ":" + row.getString(2)
                        + ":" + row.getString(3) + (row.getString(4) == null ? "" : ":" + row.getString(4) + "@"
                        + row.getString(5)),
                id.value());
    }

    private String payload(OperationId id, String type) {
        return jdbc.queryForObject("SELECT payload::text FROM outbox_event WHERE operation_id = ? AND type = ?",
                String.class, id.value(), type);
    }

    private long cancelRows(OperationId id) {
        return jdbc.queryForObject("SELECT count(*) FROM operation_cancel c JOIN operation o ON o.id = c.operation_ref "
                + "WHERE o.operation_id = ?", Long.class, id.value());
    }

    private CancelOutcome cancelOwn(OperationId id) {
        return cancels.cancelOwn(subject, id, CancelChannel.REST);
    }

    private static void signedInAs(String name, String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                name, null, AuthorityUtils.createAuthorityList(authority)));
    }

    private Effect effect(LeasedOperation run, String step, String tool) {
        return new Effect(run.fence(), step, new ToolRef("shop", tool), Map.of("sku", "A-1"), null);
    }

    @Test
    void anAcceptedOperationIsCancelledAtOnceAndNoWorkerLeasesIt() {
        OperationId id = accepted();

        var outcome = cancelOwn(id);

        assertThat(outcome).isInstanceOfSatisfying(CancelOutcome.Resolved.class, resolved -> {
            assertThat(resolved.operation().status()).isEqualTo(OperationStatus.CANCELLED);
            assertThat(resolved.cancel().resolution()).isEqualTo(CancelResolution.STOPPED);
            assertThat(resolved.cancel().acknowledgedBy()).isEqualTo("ledger");
            assertThat(resolved.cancel().channel()).isEqualTo(CancelChannel.REST);
            assertThat(resolved.cancel().requestedBy()).isEqualTo("subject:" + subject.value());
        });
        assertThat(events(id)).containsExactly("1:OperationAccepted:ACCEPTED", "2:CancelRequested:ACCEPTED",
                "3:CancelAcknowledged:ACCEPTED", "4:OperationCancelled:CANCELLED");
        assertThat(payload(id, "CancelRequested")).isEqualTo("{\"channel\": \"REST\"}");
        assertThat(lifecycle.transitions(id).getLast()).satisfies(t -> {
            assertThat(t.from()).isEqualTo(OperationStatus.ACCEPTED);
            assertThat(t.to()).isEqualTo(OperationStatus.CANCELLED);
        });
        assertThat(lifecycle.lease(NODE, 1000, java.time.Duration.ofMinutes(1)))
                .noneMatch(leased -> leased.operationId().equals(id));
        assertThat(cancelOwn(id)).as("a repeat gets the same answer").isEqualTo(outcome);
        assertThat(events(id)).hasSize(4);
    }

    @Test
    void aRunningOperationIsPendingUntilItsWorkerMeetsTheNextEffectWhichIsNotCalled() {
        LeasedOperation run = running();
        var tools = new CountingTools();
        EffectGateway gateway = TestGateways.over(node, tools);
        assertThat(gateway.perform(effect(run, "reserve", "reserve_inventory"))).isInstanceOf(EffectOutcome.Done.class);

        var pending = cancelOwn(run.operationId());

        assertThat(pending).isInstanceOfSatisfying(CancelOutcome.Pending.class, p -> {
            assertThat(p.operation().status()).isEqualTo(OperationStatus.RUNNING);
            assertThat(p.cancel().acknowledgedAt()).isNull();
        });
        assertThat(cancelOwn(run.operationId())).as("a repeat while pending").isEqualTo(pending);
        assertThat(gateway.perform(effect(run, "capture", "capture_payment")))
                .isInstanceOf(EffectOutcome.CancelRequested.class);
        assertThat(tools.calls).hasValue(1);

        assertThat(lifecycle.finishRun(run.fence(), NODE, OperationStatus.CANCELLED, "cancel seen before capture")).isTrue();

        assertThat(cancelOwn(run.operationId())).isInstanceOfSatisfying(CancelOutcome.Resolved.class, resolved -> {
            assertThat(resolved.operation().status()).isEqualTo(OperationStatus.CANCELLED);
            assertThat(resolved.cancel().resolution()).isEqualTo(CancelResolution.STOPPED);
            assertThat(resolved.cancel().acknowledgedBy()).isEqualTo(NODE);
            assertThat(resolved.cancel().step()).isNull();
        });
        assertThat(events(run.operationId())).containsExactly("1:OperationAccepted:ACCEPTED",
                "2:OperationRunning:RUNNING", "3:AgentToolStarted:STARTED:reserve_inventory@reserve",
                "4:AgentToolCompleted:SUCCEEDED:reserve_inventory@reserve", "5:CancelRequested:RUNNING",
                "6:CancelAcknowledged:RUNNING", "7:OperationCancelled:CANCELLED");
        assertThat(payload(run.operationId(), "CancelAcknowledged")).isEqualTo("{\"acknowledgedBy\": \"" + NODE + "\"}");
    }

    @Test
    void theEffectInFlightWhenTheCancelCameLandsAnywayAndTheLedgerSaysWhich() throws Exception {
        LeasedOperation run = running();
        var tools = new CountingTools();
        EffectGateway gateway = TestGateways.over(node, tools);
        tools.holdNextCall();
        CompletableFuture<EffectOutcome> inFlight = CompletableFuture.supplyAsync(
                () -> gateway.perform(effect(run, "capture", "capture_payment")));
        assertThat(tools.entered.await(10, TimeUnit.SECONDS)).as("the call is in flight").isTrue();

        var pending = cancelOwn(run.operationId());
        tools.release.countDown();

        assertThat(pending).isInstanceOf(CancelOutcome.Pending.class);
        assertThat(inFlight.get(10, TimeUnit.SECONDS)).isInstanceOf(EffectOutcome.Done.class);
        assertThat(gateway.perform(effect(run, "receipt", "send_message"))).isInstanceOf(EffectOutcome.CancelRequested.class);
        assertThat(tools.calls).hasValue(1);
        assertThat(lifecycle.finishRun(run.fence(), NODE, OperationStatus.CANCELLED, "cancel seen before receipt")).isTrue();

        assertThat(lifecycle.cancel(run.operationId())).get().satisfies(cancel -> {
            assertThat(cancel.resolution()).isEqualTo(CancelResolution.EFFECT_COMMITTED_ANYWAY);
            assertThat(cancel.step()).isEqualTo("capture");
            assertThat(cancel.tool()).isEqualTo("capture_payment");
        });
        assertThat(events(run.operationId())).endsWith("3:AgentToolStarted:STARTED:capture_payment@capture",
                "4:CancelRequested:RUNNING", "5:AgentToolCompleted:SUCCEEDED:capture_payment@capture",
                "6:CancelAcknowledged:RUNNING", "7:CancelEffectCommitted:RUNNING:capture_payment@capture",
                "8:OperationCancelled:CANCELLED");
    }

    @Test
    void aNeverRepeatCallWithAnUnknownOutcomeResolvesTheCancelAsNeedsReviewNamingTheCall() {
        LeasedOperation run = running();
        var tools = new CountingTools();
        EffectGateway gateway = TestGateways.over(node, tools);
        tools.hints.put("send_message", new ToolHints(false, false, false, true));
        tools.holdNextCall();
        tools.unreachable = true;
        CompletableFuture<EffectOutcome> inFlight = CompletableFuture.supplyAsync(
                () -> gateway.perform(effect(run, "receipt", "send_message")));
        awaitQuietly(tools.entered);

        assertThat(cancelOwn(run.operationId())).isInstanceOf(CancelOutcome.Pending.class);
        tools.release.countDown();
        var review = inFlight.join();

        assertThat(review).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(lifecycle.finishRun(run.fence(), NODE, OperationStatus.NEEDS_REVIEW, "receipt: unknown")).isTrue();
        assertThat(status(run.operationId())).isEqualTo("NEEDS_REVIEW");
        assertThat(lifecycle.cancel(run.operationId())).get().satisfies(cancel -> {
            assertThat(cancel.resolution()).isEqualTo(CancelResolution.NEEDS_REVIEW);
            assertThat(cancel.step()).isEqualTo("receipt");
            assertThat(cancel.tool()).isEqualTo("send_message");
        });
        assertThat(events(run.operationId())).endsWith("3:AgentToolStarted:STARTED:send_message@receipt",
                "4:CancelRequested:RUNNING", "5:CancelAcknowledged:RUNNING", "6:OperationNeedsReview:NEEDS_REVIEW");
    }

    @Test
    void anOperationAwaitingApprovalIsCancelledAtOnceAndCanNoLongerBeApproved() {
        LeasedOperation run = running();
        assertThat(lifecycle.finishRun(run.fence(), NODE, OperationStatus.AWAITING_APPROVAL, "amount over limit")).isTrue();
        signedInAs("support", "ROLE_SUPPORT");

        var outcome = cancels.cancelAsStaff(run.operationId(), "  customer called  ");

        assertThat(outcome).isInstanceOfSatisfying(CancelOutcome.Resolved.class, resolved -> {
            assertThat(resolved.operation().status()).isEqualTo(OperationStatus.CANCELLED);
            assertThat(resolved.cancel().requestedBy()).isEqualTo("console:support");
            assertThat(resolved.cancel().channel()).isEqualTo(CancelChannel.CONSOLE);
            assertThat(resolved.cancel().reason()).isEqualTo("customer called");
        });
        assertThat(jdbc.queryForList("SELECT actor, action, target, detail FROM console_audit WHERE target = ?",
                run.operationId().toString())).containsExactly(Map.of("actor", "support", "action", "CANCEL_OPERATION",
                "target", run.operationId().toString(), "detail", "customer called"));
        assertThat(approvals.approve(subject, run.operationId(), null))
                .isEqualTo(new ApprovalOutcome.NotAwaitingApproval(OperationStatus.CANCELLED));
        assertThat(cancels.cancelAsStaff(run.operationId(), "again")).isEqualTo(outcome);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM console_audit WHERE target = ?", Long.class,
                run.operationId().toString())).as("a repeat changes nothing and audits nothing").isEqualTo(1);
    }

    @Test
    void aRunThatReachesTheApprovalWithACancelPendingEndsCancelled() {
        LeasedOperation run = running();
        assertThat(cancelOwn(run.operationId())).isInstanceOf(CancelOutcome.Pending.class);

        assertThat(lifecycle.finishRun(run.fence(), NODE, OperationStatus.AWAITING_APPROVAL, "amount over limit")).isTrue();

        assertThat(status(run.operationId())).isEqualTo("CANCELLED");
        assertThat(lifecycle.cancel(run.operationId()).orElseThrow().resolution()).isEqualTo(CancelResolution.STOPPED);
        assertThat(events(run.operationId())).endsWith("3:CancelRequested:RUNNING", "4:CancelAcknowledged:RUNNING",
                "5:OperationCancelled:CANCELLED");
        assertThat(lifecycle.transitions(run.operationId()).getLast().reason())
                .isEqualTo("cancelled while it waited for approval");
    }

    @Test
    void anEndedOperationsCancelIsAnsweredAndChangesNothing() {
        LeasedOperation run = running();
        assertThat(lifecycle.finishRun(run.fence(), NODE, OperationStatus.SUCCEEDED, null)).isTrue();
        List<String> before = events(run.operationId());

        var outcome = cancelOwn(run.operationId());

        assertThat(outcome).isInstanceOfSatisfying(CancelOutcome.AlreadyEnded.class,
                ended -> assertThat(ended.operation().status()).isEqualTo(OperationStatus.SUCCEEDED));
        assertThat(events(run.operationId())).isEqualTo(before);
        assertThat(cancelRows(run.operationId())).isZero();
    }

    @Test
    void anotherSubjectsOperationIsNotFoundAndUnchanged() {
        OperationId id = accepted();

        var outcome = cancels.cancelOwn(new SubjectId("other-" + UUID.randomUUID()), id, CancelChannel.MCP);

        assertThat(outcome).isEqualTo(new CancelOutcome.NotFound());
        assertThat(status(id)).isEqualTo("ACCEPTED");
        assertThat(events(id)).containsExactly("1:OperationAccepted:ACCEPTED");
        assertThat(cancelRows(id)).isZero();
        assertThat(cancelOwn(OperationId.random())).isEqualTo(new CancelOutcome.NotFound());
    }

    @Test
    void sixteenCancelsAtOnceRecordOneRequestAndGetOneAnswer() throws Exception {
        LeasedOperation run = running();
        int callers = 16;
        var barrier = new CyclicBarrier(callers);
        List<Future<CancelOutcome>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
            for (int i = 0; i < callers; i++) {
                answers.add(pool.submit(() -> {
                    barrier.await(10, TimeUnit.SECONDS);
                    return cancelOwn(run.operationId());
                }));
            }
            for (Future<CancelOutcome> answer : answers) {
                assertThat(answer.get(30, TimeUnit.SECONDS)).isInstanceOf(CancelOutcome.Pending.class)
                        .isEqualTo(answers.getFirst().get());
            }
        }
        assertThat(cancelRows(run.operationId())).isEqualTo(1);
        assertThat(events(run.operationId())).filteredOn(e -> e.contains("CancelRequested")).hasSize(1);
    }

    @Test
    void staffCancelsNeedTheSupportRoleAndTheOwnPathIsNotTheConsoles() {
        OperationId id = accepted();

        assertThatThrownBy(() -> cancels.cancelAsStaff(id, null)).isInstanceOf(AuthenticationCredentialsNotFoundException.class);
        signedInAs("someone", "ROLE_USER");
        assertThatThrownBy(() -> cancels.cancelAsStaff(id, null)).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> cancels.cancelOwn(subject, id, CancelChannel.CONSOLE))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(status(id)).isEqualTo("ACCEPTED");
        assertThat(cancelRows(id)).isZero();
        signedInAs("admin", "ROLE_ADMIN");
        assertThat(cancels.cancelAsStaff(id, null)).isInstanceOf(CancelOutcome.Resolved.class);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).as("the call is in flight").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Counts calls; the next call can be held in flight until released, and can then fail as unreachable. */
    private static final class CountingTools implements ToolClient {

        final AtomicInteger calls = new AtomicInteger();
        final Map<String, ToolHints> hints = new java.util.concurrent.ConcurrentHashMap<>();
        final CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(0);
        volatile boolean unreachable;

        void holdNextCall() {
            release = new CountDownLatch(1);
        }

        @Override
        public ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException {
            calls.incrementAndGet();
            entered.countDown();
            awaitQuietly(release);
            if (unreachable) {
                throw new ToolTransportException("connection reset");
            }
            return new ToolReply(false, Map.of("tool", tool.tool()), "ok");
        }

        @Override
        public Optional<ToolHints> hints(ToolRef tool) {
            return Optional.ofNullable(hints.get(tool.tool()));
        }
    }
}

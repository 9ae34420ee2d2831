package dev.opledger.stuck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelResolution;
import dev.opledger.claim.CancelService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.TestGateways;
import dev.opledger.effect.UnansweredTools;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcpserver.McpAgent;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import dev.opledger.testing.TestTokens;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.test.context.TestPropertySource;

/**
 * Stuck tasks as support staff read them, made by the real paths: MCP tasks through the node's
 * MCP server, calls in flight through the real effect gateway (a call whose outcome is unknown
 * stays STARTED, as a hung one does). Other tests' operations share the database, so the lists are
 * read for this test's operations only. Thresholds: checkout and capture_payment at once,
 * send_message after 10 minutes, every other tool after an hour.
 */
@NodeIntegrationTest
@TestPropertySource(properties = {
    "opledger.stuck-tasks.threshold=1h",
    "opledger.stuck-tasks.tools.checkout=0s",
    "opledger.stuck-tasks.tools.capture_payment=0s",
    "opledger.stuck-tasks.tools.send_message=10m"})
class StuckTaskServiceIT {

    private static final String NODE = "stuck-it-node";

    @LocalServerPort
    int port;

    @Autowired
    StuckTaskService stuck;

    @Autowired
    CancelService cancels;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ApplicationContext node;

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void anAgentsTaskIsListedWithItsHandleUntilItsOperationEnds() {
        String subject = "stuck-agent-" + UUID.randomUUID();
        var agent = new McpAgent(port, TestTokens.forSubject(subject));
        var operationId = OperationId.random();
        String taskId = (String) McpAgent.result(agent.callTool("checkout", checkout(operationId), true)).get("taskId");
        OperationId overRest = Operations.claim(claims, new SubjectId(subject), 1).getFirst();
        signedInAs("ROLE_SUPPORT");

        assertThat(inbound(Set.of(operationId, overRest))).singleElement().satisfies(task -> {
            assertThat(task.direction()).isEqualTo(StuckTask.Direction.INBOUND);
            assertThat(task.operationId()).isEqualTo(operationId);
            assertThat(task.subject()).isEqualTo(new SubjectId(subject));
            assertThat(task.tool()).isEqualTo("checkout");
            assertThat(task.handle()).isEqualTo(taskId);
            assertThat(task.status()).isEqualTo(OperationStatus.ACCEPTED);
            assertThat(task.threshold()).isEqualTo(Duration.ZERO);
            assertThat(task.age()).isGreaterThanOrEqualTo(Duration.ZERO);
            assertThat(task.leaseHolder()).as("no worker holds an ACCEPTED operation").isNull();
            assertThat(task.cancel()).isNull();
        });

        LeasedOperation run = Operations.lease(lifecycle, NODE, operationId);
        assertThat(inbound(Set.of(operationId))).singleElement().satisfies(task -> {
            assertThat(task.status()).isEqualTo(OperationStatus.RUNNING);
            assertThat(task.leaseHolder()).isEqualTo(NODE);
            assertThat(task.leaseExpired()).isFalse();
        });

        assertThat(lifecycle.finishRun(run.fence(), NODE, OperationStatus.SUCCEEDED, null)).isTrue();
        assertThat(inbound(Set.of(operationId))).as("a task whose operation ended is not stuck").isEmpty();
    }

    @Test
    void callsInFlightAreListedPastTheirToolsThresholdOldestFirst() {
        LeasedOperation capture = inFlight("capture", "capture_payment");
        LeasedOperation receipt = inFlight("receipt", "send_message");
        LeasedOperation reserve = inFlight("reserve", "reserve_inventory");
        LeasedOperation reviewed = inFlight("capture", "capture_payment");
        assertThat(lifecycle.finishRun(reviewed.fence(), NODE, OperationStatus.NEEDS_REVIEW, "capture: unknown")).isTrue();
        Set<OperationId> mine = Set.of(capture.operationId(), receipt.operationId(), reserve.operationId(),
                reviewed.operationId());
        signedInAs("ROLE_SUPPORT");

        assertThat(outbound(mine)).as("capture_payment's threshold is 0; the others' have not passed")
                .singleElement().satisfies(task -> {
                    assertThat(task.direction()).isEqualTo(StuckTask.Direction.OUTBOUND);
                    assertThat(task.operationId()).isEqualTo(capture.operationId());
                    assertThat(task.tool()).isEqualTo("capture_payment");
                    assertThat(task.handle()).isEqualTo("shop/capture_payment@capture");
                    assertThat(task.operationType()).isEqualTo("checkout");
                    assertThat(task.status()).isEqualTo(OperationStatus.RUNNING);
                    assertThat(task.leaseHolder()).isEqualTo(NODE);
                });

        startedAgo(receipt.operationId(), Duration.ofMinutes(11));
        startedAgo(reserve.operationId(), Duration.ofMinutes(59));
        assertThat(outbound(mine)).extracting(StuckTask::operationId)
                .as("send_message's 10 minutes have passed, the default hour has not")
                .containsExactly(receipt.operationId(), capture.operationId());

        startedAgo(reserve.operationId(), Duration.ofMinutes(61));
        assertThat(outbound(mine)).extracting(StuckTask::operationId).as("oldest first")
                .containsExactly(reserve.operationId(), receipt.operationId(), capture.operationId());
        assertThat(outbound(mine).getFirst().threshold()).isEqualTo(Duration.ofHours(1));
        assertThat(outbound(mine).getFirst().age()).isGreaterThanOrEqualTo(Duration.ofMinutes(61));
    }

    @Test
    void aCancelShowsOnTheTaskAndAmongTheRecentCancelsAsItMovesOn() {
        LeasedOperation run = inFlight("capture", "capture_payment");
        signedInAs("ROLE_SUPPORT");

        var asked = cancels.cancelAsStaff(run.operationId(), "agent gave up");
        assertThat(cancels.cancelAsStaff(run.operationId(), "agent gave up")).as("a double click").isEqualTo(asked);

        assertThat(asked).isInstanceOf(CancelOutcome.Pending.class);
        assertThat(outbound(Set.of(run.operationId()))).singleElement().satisfies(task -> {
            assertThat(task.cancel()).isNotNull();
            assertThat(task.cancel().pending()).isTrue();
            assertThat(task.cancel().requestedBy()).isEqualTo("console:someone");
            assertThat(task.cancel().reason()).isEqualTo("agent gave up");
        });
        assertThat(recent(run.operationId())).satisfies(cancel -> {
            assertThat(cancel.status()).isEqualTo(OperationStatus.RUNNING);
            assertThat(cancel.cancel().resolution()).isNull();
        });

        assertThat(lifecycle.finishRun(run.fence(), NODE, OperationStatus.NEEDS_REVIEW, "capture: unknown")).isTrue();

        assertThat(outbound(Set.of(run.operationId()))).isEmpty();
        assertThat(recent(run.operationId())).satisfies(cancel -> {
            assertThat(cancel.status()).isEqualTo(OperationStatus.NEEDS_REVIEW);
            assertThat(cancel.cancel().resolution()).isEqualTo(CancelResolution.NEEDS_REVIEW);
            assertThat(cancel.cancel().acknowledgedBy()).isEqualTo(NODE);
            assertThat(cancel.cancel().tool()).isEqualTo("capture_payment");
        });
        assertThat(jdbc.queryForObject("SELECT count(*) FROM console_audit WHERE target = ?", Long.class,
                run.operationId().toString())).as("one request, audited once").isEqualTo(1);
    }

    @Test
    void onlySupportStaffAndAdminsReadStuckTasks() {
        List<Supplier<Object>> reads = List.of(() -> stuck.inbound(0, 10), () -> stuck.outbound(0, 10),
                () -> stuck.recentCancels(10), () -> stuck.thresholds());

        for (Supplier<Object> read : reads) {
            assertThatThrownBy(read::get).as("anonymous").isInstanceOf(AuthenticationCredentialsNotFoundException.class);
        }
        signedInAs("ROLE_USER");
        for (Supplier<Object> read : reads) {
            assertThatThrownBy(read::get).isInstanceOf(AccessDeniedException.class);
        }
        for (String role : List.of("ROLE_SUPPORT", "ROLE_ADMIN")) {
            signedInAs(role);
            for (Supplier<Object> read : reads) {
                assertThat(read.get()).as(role).isNotNull();
            }
        }
    }

    @Test
    void aPageIsBounded() {
        signedInAs("ROLE_SUPPORT");

        assertThat(stuck.outbound(0, StuckTaskService.MAX_PAGE_SIZE)).hasSizeLessThanOrEqualTo(StuckTaskService.MAX_PAGE_SIZE);
        assertThatThrownBy(() -> stuck.inbound(0, StuckTaskService.MAX_PAGE_SIZE + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> stuck.outbound(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> stuck.outbound(-1, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> stuck.recentCancels(StuckTaskService.MAX_PAGE_SIZE + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A leased checkout whose call of {@code tool} at {@code step} has an unknown outcome: STARTED, as a hung call. */
    private LeasedOperation inFlight(String step, String tool) {
        OperationId operationId = Operations.claim(claims, new SubjectId("stuck-" + UUID.randomUUID()), 1).getFirst();
        LeasedOperation run = Operations.lease(lifecycle, NODE, operationId);
        EffectGateway gateway = TestGateways.over(node, new UnansweredTools());
        assertThat(gateway.perform(new Effect(run.fence(), step, new ToolRef("shop", tool), Map.of("sku", "A-1"), null)))
                .isInstanceOf(EffectOutcome.NeedsReview.class);
        return run;
    }

    private void startedAgo(OperationId operationId, Duration ago) {
        assertThat(jdbc.update("UPDATE effect_record e SET started_at = now() - ? * interval '1 second' FROM operation o "
                + "WHERE o.id = e.operation_ref AND o.operation_id = ?", ago.toSeconds(), operationId.value())).isEqualTo(1);
    }

    private List<StuckTask> inbound(Set<OperationId> mine) {
        return stuck.inbound(0, StuckTaskService.MAX_PAGE_SIZE).stream().filter(t -> mine.contains(t.operationId()))
                .toList();
    }

    private List<StuckTask> outbound(Set<OperationId> mine) {
        return stuck.outbound(0, StuckTaskService.MAX_PAGE_SIZE).stream().filter(t -> mine.contains(t.operationId()))
                .toList();
    }

    private RecentCancel recent(OperationId operationId) {
        return stuck.recentCancels(StuckTaskService.MAX_PAGE_SIZE).stream()
                .filter(cancel -> cancel.operationId().equals(operationId)).findFirst().orElseThrow();
    }

    private static Map<String, Object> checkout(OperationId operationId) {
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("operationId", operationId.toString());
        arguments.put("sku", "SKU-ESPRESSO");
        arguments.put("quantity", 1);
        arguments.put("amount", 49.90);
        arguments.put("currency", "EUR");
        arguments.put("recipient", "ann@example.com");
        return arguments;
    }

    private static void signedInAs(String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                "someone", null, AuthorityUtils.createAuthorityList(authority)));
    }
}

package dev.opledger.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ApprovalService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.Effect;
import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Every state change writes its outbox row in its own statement, numbered without gaps from 1;
 * a change that does not happen (a replay, a refused finish, a repeat of a succeeded step) writes
 * none. The relay is off here (test profile): the rows stay as written.
 */
@NodeIntegrationTest
class OutboxRowsIT {

    @LocalServerPort
    int port;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    ApprovalService approvals;

    @Autowired
    EffectRecords records;

    @Autowired
    JdbcTemplate jdbc;

    SubjectId subject;
    String token;
    OperationId operationId;

    @BeforeEach
    void setUp() {
        subject = new SubjectId("outbox-" + UUID.randomUUID());
        token = TestTokens.forSubject(subject.value());
        operationId = OperationId.random();
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    private int submit(String command) {
        return ApiClient.onPort(port).submit(token, operationId.toString(), command).statusCode();
    }

    /** {@code sequence type status [tool@step] payload}, in sequence order. */
    private List<String> events() {
        return jdbc.queryForList("SELECT sequence || ' ' || type || ' ' || status || coalesce(' ' || tool || '@' || step_key, '') "
                + "|| ' ' || payload::text FROM outbox_event WHERE operation_id = ? ORDER BY sequence", String.class,
                operationId.value());
    }

    private void assertGapless() {
        List<Integer> sequences = jdbc.queryForList("SELECT sequence FROM outbox_event WHERE operation_id = ? ORDER BY id",
                Integer.class, operationId.value());
        assertThat(sequences).containsExactlyElementsOf(IntStream.rangeClosed(1, sequences.size()).boxed().toList());
        assertThat(jdbc.queryForObject("SELECT event_sequence FROM operation WHERE operation_id = ?", Integer.class,
                operationId.value())).isEqualTo(sequences.size());
    }

    private LeasedOperation lease(String node, Duration duration) {
        return lifecycle.lease(node, 1000, duration).stream().filter(o -> o.operationId().equals(operationId))
                .findFirst().orElseThrow();
    }

    @Test
    void theClaimWritesItsAcceptanceAndItsFirstTransitionAndAReplayWritesNothing() {
        assertThat(submit(Checkout.command(1, "10.00"))).isEqualTo(202);
        assertThat(submit(Checkout.command(1, "10.00"))).isEqualTo(200);
        assertThat(submit(Checkout.command(2, "10.00"))).isEqualTo(422);

        assertThat(events()).containsExactly("1 OperationAccepted ACCEPTED {\"commandType\": \"checkout\"}");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox_event e JOIN operation o ON o.id = e.operation_ref "
                + "WHERE o.operation_id = ? AND e.subject_id = ? AND e.event_id IS NOT NULL", Long.class,
                operationId.value(), subject.value())).isEqualTo(1);
        assertThat(lifecycle.transitions(operationId)).extracting(t -> t.from() + ">" + t.to()).containsExactly("null>ACCEPTED");
        assertGapless();
    }

    @Test
    void everyStatusChangeOfARunWritesItsEventAndARefusedOneWritesNone() {
        assertThat(submit(Checkout.command(1, "900.00"))).isEqualTo(202);
        LeasedOperation leased = lease("node-a", Duration.ofSeconds(30));
        assertThat(lifecycle.finishRun(leased.fence(), "not-the-holder", OperationStatus.SUCCEEDED, null)).isFalse();
        assertThat(lifecycle.finishRun(leased.fence(), "node-a", OperationStatus.AWAITING_APPROVAL, "amount over limit"))
                .isTrue();
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated("support",
                "n/a", AuthorityUtils.createAuthorityList("ROLE_SUPPORT")));
        approvals.approve(subject, operationId, "customer confirmed");
        lease("node-a", Duration.ofMillis(1));
        await("node-a's 1 ms lease to expire").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> jdbc.queryForObject("SELECT lease_expires_at < now() FROM operation WHERE operation_id = ?",
                        Boolean.class, operationId.value()));
        LeasedOperation takenOver = lease("node-b", Duration.ofSeconds(30));
        assertThat(lifecycle.finishRun(takenOver.fence(), "node-b", OperationStatus.SUCCEEDED, null)).isTrue();

        assertThat(events()).containsExactly(
                "1 OperationAccepted ACCEPTED {\"commandType\": \"checkout\"}",
                "2 OperationRunning RUNNING {\"runCount\": 1}",
                "3 ApprovalRequested AWAITING_APPROVAL {\"reason\": \"amount over limit\"}",
                "4 ApprovalDecided ACCEPTED {\"decision\": \"APPROVED\"}",
                "5 OperationRunning RUNNING {\"runCount\": 2}",
                "6 OperationTakenOver RUNNING {\"runCount\": 3}",
                "7 OperationSucceeded SUCCEEDED {}");
        assertGapless();
    }

    @Test
    void everyCallAttemptAndEveryOutcomeOfAnEffectWritesItsEvent() {
        assertThat(submit(Checkout.command(1, "10.00"))).isEqualTo(202);
        var fence = lease("node-a", Duration.ofSeconds(30)).fence();
        var reserve = new Effect(fence, "reserve", new ToolRef("shop", "reserve_inventory"), Map.of(), null);
        var receipt = new Effect(fence, "receipt", new ToolRef("shop", "send_message"), Map.of(), null);

        records.start(reserve, RepeatClass.KEYED, "key", Map.of());
        records.start(reserve, RepeatClass.KEYED, "key", Map.of());
        records.succeed(reserve, Map.of("reservation", "r-1"));
        records.start(reserve, RepeatClass.KEYED, "key", Map.of()); // succeeded already: no call, no event
        records.start(receipt, RepeatClass.NEVER_REPEAT, null, Map.of());
        records.fail(receipt, "mailbox full");
        records.fail(reserve, "too late"); // succeeded already: not failed, no event

        assertThat(events()).containsExactly(
                "1 OperationAccepted ACCEPTED {\"commandType\": \"checkout\"}",
                "2 OperationRunning RUNNING {\"runCount\": 1}",
                "3 AgentToolStarted STARTED reserve_inventory@reserve {\"server\": \"shop\", \"attempt\": 1}",
                "4 AgentToolStarted STARTED reserve_inventory@reserve {\"server\": \"shop\", \"attempt\": 2}",
                "5 AgentToolCompleted SUCCEEDED reserve_inventory@reserve {\"server\": \"shop\", \"attempt\": 2}",
                "6 AgentToolStarted STARTED send_message@receipt {\"server\": \"shop\", \"attempt\": 1}",
                "7 AgentToolFailed FAILED send_message@receipt {\"server\": \"shop\", \"attempt\": 1}");
        assertGapless();
    }
}

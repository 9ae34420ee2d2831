package dev.opledger.claim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/** Approve and reject from the console: role-checked on the façade, audited, and never decided twice. */
@NodeIntegrationTest
class ApprovalServiceIT {

    private static final String NODE = "approval-it-node";

    @Autowired
    ApprovalService approvals;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    SubjectId subject;

    @BeforeEach
    void newSubject() {
        subject = new SubjectId("approval-" + UUID.randomUUID());
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void supportApprovesAnOperationAwaitingApprovalAndTheDecisionIsAudited() {
        OperationId operation = awaitingApproval();
        signedInAs("support", "ROLE_SUPPORT");

        var outcome = approvals.approve(subject, operation, "  known customer  ");

        assertThat(outcome).isInstanceOfSatisfying(ApprovalOutcome.Decided.class, decided -> {
            assertThat(decided.decision().approved()).isTrue();
            assertThat(decided.decision().actor()).isEqualTo("support");
            assertThat(decided.decision().reason()).isEqualTo("known customer");
        });
        assertThat(status(operation)).isEqualTo("ACCEPTED");
        assertThat(audit(operation)).containsExactly(Map.of("actor", "support", "action", "APPROVE_OPERATION",
                "target", operation.toString(), "detail", "known customer"));
        assertThat(lifecycle.transitions(operation).getLast()).satisfies(transition -> {
            assertThat(transition.from()).isEqualTo(OperationStatus.AWAITING_APPROVAL);
            assertThat(transition.to()).isEqualTo(OperationStatus.ACCEPTED);
            assertThat(transition.nodeId()).isEqualTo("console:support");
        });
    }

    @Test
    void anApprovalNeedsNoNote() {
        OperationId operation = awaitingApproval();
        signedInAs("support", "ROLE_SUPPORT");

        var outcome = approvals.approve(subject, operation, " ");

        assertThat(outcome).isInstanceOfSatisfying(ApprovalOutcome.Decided.class,
                decided -> assertThat(decided.decision().reason()).isNull());
        assertThat(audit(operation)).singleElement().satisfies(row -> assertThat(row.get("detail")).isNull());
    }

    @Test
    void anAdminRejectsThroughTheRoleHierarchyWithTheReasonAudited() {
        OperationId operation = awaitingApproval();
        signedInAs("admin", "ROLE_ADMIN");

        var outcome = approvals.reject(subject, operation, "card looks stolen");

        assertThat(outcome).isInstanceOfSatisfying(ApprovalOutcome.Decided.class, decided -> {
            assertThat(decided.decision().approved()).isFalse();
            assertThat(decided.decision().reason()).isEqualTo("card looks stolen");
        });
        assertThat(status(operation)).as("back to the workers, whose graph undoes and fails it").isEqualTo("ACCEPTED");
        assertThat(lifecycle.approval(operation)).hasValueSatisfying(d -> assertThat(d.approved()).isFalse());
        assertThat(audit(operation)).containsExactly(Map.of("actor", "admin", "action", "REJECT_OPERATION",
                "target", operation.toString(), "detail", "card looks stolen"));
    }

    @Test
    void callersWithoutTheSupportRoleAreRefusedAndNothingChanges() {
        OperationId operation = awaitingApproval();

        assertThatThrownBy(() -> approvals.approve(subject, operation, null))
                .isInstanceOf(AuthenticationCredentialsNotFoundException.class);
        signedInAs("mallory", "ROLE_SOMEONE_ELSE");
        assertThatThrownBy(() -> approvals.approve(subject, operation, null)).isInstanceOf(AccessDeniedException.class);
        assertThatThrownBy(() -> approvals.reject(subject, operation, "no")).isInstanceOf(AccessDeniedException.class);

        assertThat(status(operation)).isEqualTo("AWAITING_APPROVAL");
        assertThat(lifecycle.approval(operation)).isEmpty();
        assertThat(audit(operation)).isEmpty();
    }

    @Test
    void aSecondDecisionIsRefusedAndSaysWhoDecidedFirst() {
        OperationId operation = awaitingApproval();
        signedInAs("support", "ROLE_SUPPORT");
        approvals.approve(subject, operation, "known customer");
        signedInAs("admin", "ROLE_ADMIN");

        var second = approvals.reject(subject, operation, "too late");

        assertThat(second).isInstanceOfSatisfying(ApprovalOutcome.AlreadyDecided.class, already -> {
            assertThat(already.decision().approved()).isTrue();
            assertThat(already.decision().actor()).isEqualTo("support");
            assertThat(already.decision().reason()).isEqualTo("known customer");
        });
        assertThat(status(operation)).isEqualTo("ACCEPTED");
        assertThat(audit(operation)).extracting(row -> row.get("action")).containsExactly("APPROVE_OPERATION");
    }

    @Test
    void aDecisionOnAnOperationThatIsNotAwaitingApprovalChangesNothing() {
        OperationId operation = Operations.claim(claims, subject, 1, "checkout", "{}").getFirst();
        signedInAs("support", "ROLE_SUPPORT");

        var outcome = approvals.approve(subject, operation, null);

        assertThat(outcome).isEqualTo(new ApprovalOutcome.NotAwaitingApproval(OperationStatus.ACCEPTED));
        assertThat(lifecycle.approval(operation)).isEmpty();
        assertThat(audit(operation)).isEmpty();
    }

    @Test
    void anotherSubjectsOperationIsNotFound() {
        OperationId operation = awaitingApproval();
        signedInAs("support", "ROLE_SUPPORT");

        var someoneElse = new SubjectId("someone-else-" + UUID.randomUUID());

        assertThat(approvals.approve(someoneElse, operation, null)).isEqualTo(new ApprovalOutcome.NotFound());
        assertThat(approvals.reject(someoneElse, operation, "not mine")).isEqualTo(new ApprovalOutcome.NotFound());
        assertThat(status(operation)).isEqualTo("AWAITING_APPROVAL");
        assertThat(lifecycle.approval(operation)).isEmpty();
        assertThat(lifecycle.transitions(operation).getLast().to()).isEqualTo(OperationStatus.AWAITING_APPROVAL);
        assertThat(audit(operation)).isEmpty();
    }

    @Test
    void anOperationIdNoOneClaimedIsNotFound() {
        signedInAs("support", "ROLE_SUPPORT");

        assertThat(approvals.approve(subject, OperationId.random(), null)).isEqualTo(new ApprovalOutcome.NotFound());
    }

    @Test
    void aRejectionWithoutAReasonIsRefusedAndChangesNothing() {
        OperationId operation = awaitingApproval();
        signedInAs("support", "ROLE_SUPPORT");

        assertThatThrownBy(() -> approvals.reject(subject, operation, "   ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> approvals.approve(subject, operation, "x".repeat(ApprovalService.MAX_REASON_LENGTH + 1)))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(status(operation)).isEqualTo("AWAITING_APPROVAL");
        assertThat(audit(operation)).isEmpty();
    }

    /** An operation whose run stopped for approval, as the checkout graph's run does over the limit. */
    private OperationId awaitingApproval() {
        OperationId operation = Operations.claim(claims, subject, 1, "checkout", "{}").getFirst();
        LeasedOperation leased = lifecycle.lease(NODE, 1000, Duration.ofSeconds(30)).stream()
                .filter(candidate -> candidate.operationId().equals(operation)).findFirst().orElseThrow();
        assertThat(lifecycle.finishRun(leased.fence(), NODE, OperationStatus.AWAITING_APPROVAL,
                "amount 900.00 is over the approval limit 500.00")).isTrue();
        return operation;
    }

    private String status(OperationId operation) {
        return jdbc.queryForObject("SELECT status FROM operation WHERE subject_id = ? AND operation_id = ?", String.class,
                subject.value(), operation.value());
    }

    private List<Map<String, Object>> audit(OperationId operation) {
        return jdbc.queryForList("SELECT actor, action, target, detail FROM console_audit WHERE target = ? ORDER BY id",
                operation.toString());
    }

    private static void signedInAs(String name, String authority) {
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                name, null, AuthorityUtils.createAuthorityList(authority)));
    }
}

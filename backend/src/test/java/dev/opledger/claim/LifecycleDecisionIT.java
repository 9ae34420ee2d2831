package dev.opledger.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A person's decisions as {@link LifecycleService} writes them: each needs the status it decides on
 * and no lease, and is recorded once with its transition. (Package-private: {@link ApprovalService}
 * is the role-checked, audited way to them; ApprovalServiceIT tests that.)
 */
@NodeIntegrationTest
class LifecycleDecisionIT {

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    private String status(SubjectId subject, OperationId id) {
        return jdbc.queryForObject("SELECT status FROM operation WHERE subject_id = ? AND operation_id = ?", String.class,
                subject.value(), id.value());
    }

    @Test
    void aDecisionNeedsTheStatusItDecidesOnAndNoLease() {
        var subject = new SubjectId("decide-" + UUID.randomUUID());
        OperationId id = Operations.claim(claims, subject, 1).getFirst();
        var leased = lifecycle.lease("node-x", 1000, Duration.ofSeconds(30)).stream()
                .filter(o -> o.operationId().equals(id)).findFirst().orElseThrow();

        assertThat(lifecycle.decide(leased.operationId(), OperationStatus.RUNNING, OperationStatus.CANCELLED, "admin", "no")).isFalse();
        assertThat(lifecycle.finishRun(leased.fence(), "node-x", OperationStatus.AWAITING_APPROVAL, "amount over limit")).isTrue();
        assertThat(lifecycle.decide(leased.operationId(), OperationStatus.AWAITING_APPROVAL, OperationStatus.ACCEPTED, "admin",
                "approved")).isTrue();
        assertThat(lifecycle.decide(leased.operationId(), OperationStatus.AWAITING_APPROVAL, OperationStatus.ACCEPTED, "admin",
                "approved twice")).isFalse();
        assertThat(lifecycle.transitions(leased.operationId())).extracting(t -> t.from() + ">" + t.to() + "@" + t.nodeId())
                .containsExactly("null>ACCEPTED@null", "ACCEPTED>RUNNING@node-x",
                        "RUNNING>AWAITING_APPROVAL@node-x", "AWAITING_APPROVAL>ACCEPTED@console:admin");
    }

    @Test
    void anApprovalDecisionIsRecordedOnceWithItsTransition() {
        var subject = new SubjectId("approve-" + UUID.randomUUID());
        List<OperationId> ids = Operations.claim(claims, subject, 2);
        var leased = lifecycle.lease("node-y", 1000, Duration.ofSeconds(30)).stream()
                .filter(o -> ids.contains(o.operationId())).toList();
        assertThat(leased).hasSize(2);
        OperationId approved = leased.get(0).operationId();
        OperationId rejected = leased.get(1).operationId();

        assertThat(lifecycle.approve(subject, approved, "admin", null)).as("not awaiting approval yet").isFalse();
        for (LeasedOperation run : leased) {
            assertThat(lifecycle.finishRun(run.fence(), "node-y", OperationStatus.AWAITING_APPROVAL, "amount over limit")).isTrue();
        }
        assertThat(lifecycle.approve(new SubjectId("other-" + UUID.randomUUID()), approved, "admin", null))
                .as("another subject's decision").isFalse();
        assertThat(lifecycle.approval(approved)).isEmpty();
        assertThat(lifecycle.approve(subject, approved, "admin", "known customer")).isTrue();
        assertThat(lifecycle.reject(subject, approved, "support", "changed my mind")).as("decided already").isFalse();
        assertThat(lifecycle.reject(subject, rejected, "support", "card looks stolen")).isTrue();

        assertThat(lifecycle.approval(approved)).get().satisfies(d -> {
            assertThat(d.operationId()).isEqualTo(approved);
            assertThat(d.approved()).isTrue();
            assertThat(d.actor()).isEqualTo("admin");
            assertThat(d.reason()).isEqualTo("known customer");
        });
        assertThat(lifecycle.approval(rejected)).get().satisfies(d -> assertThat(d.approved()).isFalse());
        assertThat(lifecycle.transitions(rejected).getLast()).satisfies(t -> {
            assertThat(t.to()).isEqualTo(OperationStatus.ACCEPTED);
            assertThat(t.reason()).isEqualTo("rejected by support: card looks stolen");
        });
        assertThat(status(subject, ids.get(0))).isEqualTo("ACCEPTED");
    }
}

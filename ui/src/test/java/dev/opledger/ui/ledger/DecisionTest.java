package dev.opledger.ui.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.ApprovalOutcome;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DecisionTest {

    private static final Instant AT = Instant.parse("2026-11-30T12:34:56.789Z");
    private static final OperationId OPERATION = OperationId.random();

    @Test
    void saysWhatAnApprovalAndARejectionDo() {
        assertThat(Decision.message(new ApprovalOutcome.Decided(new ApprovalDecision(OPERATION, true, "support", null, AT))))
                .isEqualTo("Approved: the operation is ACCEPTED again and its run goes on.");
        assertThat(Decision.message(new ApprovalOutcome.Decided(new ApprovalDecision(OPERATION, false, "support", "no", AT))))
                .isEqualTo("Rejected: the operation is ACCEPTED again; its run undoes what it did and ends FAILED.");
    }

    @Test
    void aLateDecisionSaysWhoDecidedFirstWhenAndWhy() {
        var first = new ApprovalDecision(OPERATION, false, "other-support", "card reported stolen", AT);

        assertThat(Decision.message(new ApprovalOutcome.AlreadyDecided(first)))
                .isEqualTo("Nothing changed: the operation was already rejected by other-support at "
                        + "2026-11-30 12:34:56.789 UTC: card reported stolen.");
        assertThat(Decision.message(new ApprovalOutcome.AlreadyDecided(new ApprovalDecision(OPERATION, true, "admin", null, AT))))
                .isEqualTo("Nothing changed: the operation was already approved by admin at 2026-11-30 12:34:56.789 UTC.");
    }

    @Test
    void anOperationThatIsNotWaitingSaysWhereItIs() {
        assertThat(Decision.message(new ApprovalOutcome.NotAwaitingApproval(OperationStatus.RUNNING)))
                .isEqualTo("Nothing changed: the operation is not awaiting approval (it is RUNNING).");
        assertThat(Decision.message(new ApprovalOutcome.NotFound()))
                .isEqualTo("Nothing changed: the operation was not found.");
    }
}

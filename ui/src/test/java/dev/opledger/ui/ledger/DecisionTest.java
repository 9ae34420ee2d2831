package dev.opledger.ui.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.ApprovalOutcome;
import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.CancelResolution;
import dev.opledger.claim.OperationState;
import dev.opledger.operation.PayloadHash;
import dev.opledger.operation.SubjectId;
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

    private static OperationState operation(OperationStatus status) {
        return new OperationState(new SubjectId("ann"), OPERATION, "checkout", status, new PayloadHash(new byte[32]), AT, AT, null);
    }

    @Test
    void saysWhereACancelStands() {
        var stopped = new CancelRecord("console:support", CancelChannel.CONSOLE, null, AT, AT, "ledger",
                CancelResolution.STOPPED, null, null, AT);
        var pending = new CancelRecord("console:support", CancelChannel.CONSOLE, null, AT, null, null, null, null, null,
                null);

        assertThat(Decision.message(new CancelOutcome.Resolved(operation(OperationStatus.CANCELLED), stopped)))
                .isEqualTo("Cancel stopped: no effect after the request; the operation is CANCELLED.");
        assertThat(Decision.message(new CancelOutcome.Pending(operation(OperationStatus.RUNNING), pending)))
                .startsWith("Cancel requested: the operation's worker stops at its next step boundary");
        assertThat(Decision.message(new CancelOutcome.AlreadyEnded(operation(OperationStatus.SUCCEEDED))))
                .isEqualTo("Nothing changed: the operation had ended (it is SUCCEEDED).");
        assertThat(Decision.message(new CancelOutcome.NotFound())).isEqualTo("Nothing changed: the operation was not found.");
    }
}

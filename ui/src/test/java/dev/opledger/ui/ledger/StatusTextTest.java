package dev.opledger.ui.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.operation.OperationStatus;
import org.junit.jupiter.api.Test;

class StatusTextTest {

    @Test
    void needsReviewSaysWhy() {
        assertThat(StatusText.reason(OperationStatus.NEEDS_REVIEW, "send_message may have run"))
                .hasValue("Needs a person's review: send_message may have run");
    }

    @Test
    void failedSaysWhyAndSaysSoWhenNothingWasRecorded() {
        assertThat(StatusText.reason(OperationStatus.FAILED, "rejected by support: stolen card"))
                .hasValue("Failed: rejected by support: stolen card");
        assertThat(StatusText.reason(OperationStatus.FAILED, null)).hasValue("Failed: no reason was recorded");
    }

    @Test
    void awaitingApprovalAsksForADecision() {
        assertThat(StatusText.reason(OperationStatus.AWAITING_APPROVAL, "amount 900.00 over 500.00"))
                .hasValue("Waiting for a person to approve or reject it: amount 900.00 over 500.00");
    }

    @Test
    void otherStatusesShowTheRecordedReasonOnly() {
        assertThat(StatusText.reason(OperationStatus.ACCEPTED, "approved by support")).hasValue("approved by support");
        assertThat(StatusText.reason(OperationStatus.SUCCEEDED, null)).isEmpty();
        assertThat(StatusText.reason(OperationStatus.RUNNING, " ")).isEmpty();
    }
}

package dev.opledger.api;

import dev.opledger.attest.AttestRefusal;
import dev.opledger.attest.AttestRefusedException;
import dev.opledger.operation.OperationId;
import org.jspecify.annotations.Nullable;

/** An App Attest refusal on its way to the client, with the operationId the request named. */
class AttestProblem extends RuntimeException {

    private final AttestRefusal refusal;
    private final @Nullable String check;
    private final @Nullable OperationId operationId;

    AttestProblem(AttestRefusedException refusal, @Nullable OperationId operationId) {
        super(refusal.getMessage(), refusal);
        this.refusal = refusal.refusal();
        this.check = refusal.check();
        this.operationId = operationId;
    }

    AttestProblem(AttestRefusal refusal, String detail, @Nullable String check, OperationId operationId) {
        super(detail);
        this.refusal = refusal;
        this.check = check;
        this.operationId = operationId;
    }

    ProblemType problem() {
        return type(refusal);
    }

    @Nullable String check() {
        return check;
    }

    @Nullable OperationId operationId() {
        return operationId;
    }

    static ProblemType type(AttestRefusal refusal) {
        return switch (refusal) {
            case ATTESTATION_REQUIRED -> ProblemType.ATTESTATION_REQUIRED;
            case ASSERTION_INVALID -> ProblemType.ASSERTION_INVALID;
            case ASSERTION_REPLAYED -> ProblemType.ASSERTION_REPLAYED;
            case CHALLENGE_INVALID -> ProblemType.CHALLENGE_INVALID;
            case KEY_UNKNOWN -> ProblemType.KEY_UNKNOWN;
            case ATTESTATION_INVALID -> ProblemType.ATTESTATION_INVALID;
            case KEY_REGISTERED -> ProblemType.KEY_REGISTERED;
        };
    }
}

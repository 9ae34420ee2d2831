package dev.opledger.api;

import dev.opledger.operation.OperationId;
import org.jspecify.annotations.Nullable;

/** A request the API refuses before any stage sees it; carries its problem type. */
class ApiException extends RuntimeException {

    private final ProblemType problem;
    private final @Nullable OperationId operationId;

    ApiException(ProblemType problem, String detail, @Nullable OperationId operationId) {
        super(detail);
        this.problem = problem;
        this.operationId = operationId;
    }

    ProblemType problem() {
        return problem;
    }

    @Nullable OperationId operationId() {
        return operationId;
    }
}

package dev.opledger.api;

import dev.opledger.operation.OperationId;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ProblemDetail;

/** Builds the RFC 9457 body for a {@link ProblemType}, with the operationId where one is known. */
final class ApiProblem {

    private ApiProblem() {
    }

    static ProblemDetail of(ProblemType problem, String detail, @Nullable OperationId operationId) {
        var body = ProblemDetail.forStatusAndDetail(problem.status(), detail);
        body.setType(problem.type());
        body.setTitle(problem.title());
        if (operationId != null) {
            body.setProperty("operationId", operationId.toString());
        }
        return body;
    }
}

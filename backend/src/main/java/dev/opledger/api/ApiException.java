package dev.opledger.api;

import dev.opledger.operation.OperationId;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A request the API refuses before any stage sees it; carries its problem type and any extension
 * members the problem body adds (RFC 9457 section 3.2).
 */
class ApiException extends RuntimeException {

    private final ProblemType problem;
    private final @Nullable OperationId operationId;
    private final Map<String, Object> extensions;

    ApiException(ProblemType problem, String detail, @Nullable OperationId operationId) {
        this(problem, detail, operationId, Map.of());
    }

    ApiException(ProblemType problem, String detail, @Nullable OperationId operationId, Map<String, Object> extensions) {
        super(detail);
        this.problem = problem;
        this.operationId = operationId;
        this.extensions = Map.copyOf(extensions);
    }

    ProblemType problem() {
        return problem;
    }

    @Nullable OperationId operationId() {
        return operationId;
    }

    Map<String, Object> extensions() {
        return extensions;
    }
}

package dev.opledger.graph.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says which operation type stopped the node from starting, without a stack trace. */
class InvalidOperationTypeFailureAnalyzer extends AbstractFailureAnalyzer<InvalidOperationTypeException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidOperationTypeException cause) {
        return new FailureAnalysis(cause.getMessage(), "Fix the operation type's name or its arguments schema "
                + "(a JSON Schema 2020-12 on the classpath, see OperationType.argumentsSchema()).", cause);
    }
}

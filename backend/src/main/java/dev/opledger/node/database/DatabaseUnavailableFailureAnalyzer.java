package dev.opledger.node.database;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Prints why the node has no database and what to do, instead of a stack trace. */
class DatabaseUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<DatabaseUnavailableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DatabaseUnavailableException cause) {
        return new FailureAnalysis(cause.getMessage(), "See README.md, section \"Database\".", null);
    }
}

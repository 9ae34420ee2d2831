package dev.opledger.attest.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says why the node refused its App Attest settings, without a stack trace. */
class InsecureAttestSettingsFailureAnalyzer extends AbstractFailureAnalyzer<InsecureAttestSettingsException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InsecureAttestSettingsException cause) {
        return new FailureAnalysis(cause.getMessage(), "See docs/protocol.md, \"Configuration a node exposes\".", null);
    }
}

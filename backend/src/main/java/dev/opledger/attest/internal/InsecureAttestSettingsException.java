package dev.opledger.attest.internal;

/** A production node was configured to accept operations without a genuine app. */
public class InsecureAttestSettingsException extends RuntimeException {

    public InsecureAttestSettingsException(String message) {
        super(message);
    }
}

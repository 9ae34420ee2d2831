package dev.opledger.attest;

/** Whether {@code POST /v1/operations} needs an App Attest assertion. */
public enum AttestMode {
    /** Every attempt carries a valid assertion; the default, also in the local profile. */
    REQUIRED,
    /** An attempt without one is accepted and its operation marked unattested; one that has one is verified. */
    OPTIONAL,
    /** Assertions are not read. Refused outside the local and test profiles unless allow-insecure. */
    OFF
}

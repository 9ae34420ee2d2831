package dev.opledger.attest;

/** Why App Attest refused a request; each is a problem type of PROTOCOL.md. */
public enum AttestRefusal {
    /** Mode required and the attempt carried no assertion. */
    ATTESTATION_REQUIRED,
    /** The assertion's form, signature, rpId or binding to this request does not hold. */
    ASSERTION_INVALID,
    /** The assertion's counter is not greater than the stored one. */
    ASSERTION_REPLAYED,
    /** The challenge is unknown, used, expired, or another subject's. */
    CHALLENGE_INVALID,
    /** The keyId is not registered for this subject, or it is revoked. */
    KEY_UNKNOWN,
    /** A key registration's attestation failed a check. */
    ATTESTATION_INVALID,
    /** The keyId is already registered, by another subject or with another challenge. */
    KEY_REGISTERED
}

package dev.opledger.attest;

/** The check of an assertion that failed. */
public enum AssertionCheck {
    /** Not CBOR with {@code signature} and {@code authenticatorData}, or authenticator data too short. */
    FORMAT,
    /** The signature does not verify over SHA-256(authenticatorData ‖ clientDataHash) with the key. */
    SIGNATURE,
    /** The rpIdHash is not the key's app. */
    RP_ID,
    /** The counter is not greater than the stored one: a replay. */
    COUNTER
}

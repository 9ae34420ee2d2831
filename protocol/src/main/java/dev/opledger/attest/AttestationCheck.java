package dev.opledger.attest;

/** The check of an attestation (key registration) that failed. */
public enum AttestationCheck {
    /** Not CBOR, not {@code apple-appattest}, or authenticator data too short. */
    FORMAT,
    /** The certificates do not lead to a trusted root at the verification instant. */
    CERTIFICATE_CHAIN,
    /** The leaf's nonce is not SHA-256(authData ‖ clientDataHash). */
    NONCE,
    /** SHA-256 of the leaf's public key is not the keyId. */
    KEY_ID,
    /** The rpIdHash is not that of a configured app. */
    RP_ID,
    /** The sign count of a new key is not 0. */
    COUNTER,
    /** The aaguid is not that of the configured environment. */
    AAGUID,
    /** The credential id is not the keyId, or the credential key is not the leaf's key. */
    CREDENTIAL,
    /** Apple's receipt is missing, not signed by a trusted chain, or not about this key and app. */
    RECEIPT
}

package dev.opledger.attest;

/**
 * A key whose attestation verified.
 *
 * @param keyId SHA-256 of the public key, as the device names it
 * @param publicKey the uncompressed P-256 point, 65 bytes ({@code 04 ‖ x ‖ y})
 * @param receipt Apple's receipt, kept for a later risk-metric check
 * @param extensionData bytes after the credential public key (iOS 27 appends a CBOR map there
 *     without setting the ED flag); empty when there are none
 */
public record VerifiedAttestation(
        byte[] keyId, byte[] publicKey, AppId app, AttestEnvironment environment, byte[] receipt,
        byte[] extensionData) {
}

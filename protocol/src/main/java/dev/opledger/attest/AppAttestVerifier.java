package dev.opledger.attest;

import dev.opledger.attest.internal.AuthenticatorData;
import dev.opledger.attest.internal.CertificateChain;
import dev.opledger.attest.internal.Digests;
import dev.opledger.attest.internal.EcdsaP256;
import dev.opledger.attest.internal.P256;
import dev.opledger.attest.internal.Receipt;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * Verifies App Attest attestations and assertions as Apple's "Validating apps that connect to
 * your server" describes, on JDK crypto, Jackson's CBOR and BouncyCastle's ASN.1. Stateless: the
 * caller supplies the clientDataHash, the trusted roots, the instant, and for an assertion the
 * stored key and counter; persisting counters and consuming challenges is the node's {@code AttestService}'s.
 * The server and the CLI's offline {@code verify} run this same code.
 */
public final class AppAttestVerifier {

    private static final CBORMapper CBOR = CBORMapper.builder().build();
    private static final String FORMAT = "apple-appattest";

    private final Set<X509Certificate> attestationRoots;
    private final Set<X509Certificate> receiptRoots;

    /**
     * @param attestationRoots roots an attestation's certificates must lead to (Apple App
     *     Attestation Root CA, plus development roots where configured)
     * @param receiptRoots roots a receipt's signer must lead to (Apple Root CA - G3, plus
     *     development roots where configured)
     */
    public AppAttestVerifier(Set<X509Certificate> attestationRoots, Set<X509Certificate> receiptRoots) {
        if (attestationRoots.isEmpty() || receiptRoots.isEmpty()) {
            throw new IllegalArgumentException("at least one trusted root of each kind is needed");
        }
        this.attestationRoots = Set.copyOf(attestationRoots);
        this.receiptRoots = Set.copyOf(receiptRoots);
    }

    /**
     * Checks a key's attestation: the chain to a trusted root at {@code at}, the nonce, the keyId,
     * the rpId against {@code apps}, a sign count of 0, the aaguid of {@code environment}, the
     * credential id and key, and Apple's receipt. Data after the credential key is accepted and
     * returned.
     *
     * @throws AttestationRejectedException naming the first check that failed
     */
    public VerifiedAttestation verifyAttestation(byte[] attestationObject, byte[] keyId, byte[] clientDataHash,
            Set<AppId> apps, AttestEnvironment environment, Instant at) {
        JsonNode object = cbor(attestationObject, AttestationCheck.FORMAT);
        if (!FORMAT.equals(text(object, "fmt"))) {
            throw attestation(AttestationCheck.FORMAT, "fmt is not " + FORMAT);
        }
        JsonNode statement = object.get("attStmt");
        byte[] authDataBytes = binary(object, "authData", AttestationCheck.FORMAT);
        JsonNode x5c = statement == null ? null : statement.get("x5c");
        if (x5c == null || !x5c.isArray() || x5c.isEmpty()) {
            throw attestation(AttestationCheck.FORMAT, "attStmt.x5c holds no certificates");
        }
        List<byte[]> certificates = new ArrayList<>();
        x5c.forEach(certificate -> certificates.add(certificate.isBinary() ? certificate.binaryValue() : new byte[0]));
        byte[] receipt = statement.has("receipt") ? binary(statement, "receipt", AttestationCheck.FORMAT) : new byte[0];

        List<X509Certificate> chain;
        AuthenticatorData authData;
        try {
            chain = CertificateChain.parse(certificates);
            authData = AuthenticatorData.ofAttestation(authDataBytes);
        } catch (IllegalArgumentException e) {
            throw attestation(AttestationCheck.FORMAT, e.getMessage());
        }
        try {
            CertificateChain.validate(chain, attestationRoots, at);
        } catch (GeneralSecurityException e) {
            throw new AttestationRejectedException(AttestationCheck.CERTIFICATE_CHAIN,
                    "the certificate chain does not lead to a trusted root at " + at + ": " + e.getMessage(), e);
        }
        X509Certificate leaf = chain.getFirst();
        byte[] nonce;
        try {
            nonce = CertificateChain.nonce(leaf);
        } catch (IllegalArgumentException e) {
            throw attestation(AttestationCheck.NONCE, e.getMessage());
        }
        if (!MessageDigest.isEqual(nonce, Digests.sha256(authDataBytes, clientDataHash))) {
            throw attestation(AttestationCheck.NONCE, "the leaf's nonce is not SHA-256(authData ‖ clientDataHash)");
        }
        byte[] publicKey;
        try {
            publicKey = P256.uncompressed(leaf.getPublicKey());
        } catch (IllegalArgumentException e) {
            throw attestation(AttestationCheck.KEY_ID, "the leaf's key is not a P-256 key");
        }
        if (!MessageDigest.isEqual(Digests.sha256(publicKey), keyId)) {
            throw attestation(AttestationCheck.KEY_ID, "SHA-256 of the leaf's public key is not the keyId");
        }
        AppId app = apps.stream().filter(candidate -> MessageDigest.isEqual(candidate.rpIdHash(), authData.rpIdHash()))
                .findFirst()
                .orElseThrow(() -> attestation(AttestationCheck.RP_ID, "the rpIdHash is not that of a configured app"));
        if (authData.signCount() != 0) {
            throw attestation(AttestationCheck.COUNTER, "a new key's sign count is " + authData.signCount() + ", not 0");
        }
        var credential = authData.credential();
        if (!environment.matches(credential.aaguid())) {
            throw attestation(AttestationCheck.AAGUID, "the aaguid is not that of the " + environment + " environment");
        }
        if (!MessageDigest.isEqual(credential.credentialId(), keyId)) {
            throw attestation(AttestationCheck.CREDENTIAL, "the credential id is not the keyId");
        }
        if (!MessageDigest.isEqual(credential.x(), Arrays.copyOfRange(publicKey, 1, 33))
                || !MessageDigest.isEqual(credential.y(), Arrays.copyOfRange(publicKey, 33, 65))) {
            throw attestation(AttestationCheck.CREDENTIAL, "the credential public key is not the leaf's key");
        }
        try {
            Receipt.check(receipt, receiptRoots, at, app.value(), leaf);
        } catch (IllegalArgumentException e) {
            throw attestation(AttestationCheck.RECEIPT, e.getMessage());
        }
        return new VerifiedAttestation(keyId.clone(), publicKey, app, environment, receipt, authData.extensionData());
    }

    /**
     * Checks an assertion against a stored key: the signature over
     * SHA-256(authenticatorData ‖ clientDataHash), the app's rpIdHash, and a counter strictly
     * greater than {@code storedCounter}. Data after the counter is accepted.
     *
     * @throws AssertionRejectedException naming the first check that failed
     */
    public static VerifiedAssertion verifyAssertion(byte[] assertion, byte[] clientDataHash, byte[] publicKey,
            AppId app, long storedCounter) {
        JsonNode object;
        byte[] signature;
        byte[] authDataBytes;
        AuthenticatorData authData;
        try {
            object = CBOR.readTree(assertion);
            if (object == null || !object.isObject()) {
                throw new IllegalArgumentException("not a CBOR map");
            }
            signature = binaryOrThrow(object, "signature");
            authDataBytes = binaryOrThrow(object, "authenticatorData");
            authData = AuthenticatorData.ofAssertion(authDataBytes);
        } catch (JacksonException | IllegalArgumentException e) {
            throw new AssertionRejectedException(AssertionCheck.FORMAT, "the assertion is not App Attest's CBOR: "
                    + (e instanceof JacksonException j ? j.getOriginalMessage() : e.getMessage()));
        }
        byte[] nonce = Digests.sha256(authDataBytes, clientDataHash);
        if (!signatureHolds(publicKey, nonce, signature)) {
            throw new AssertionRejectedException(AssertionCheck.SIGNATURE,
                    "the signature does not verify over SHA-256(authenticatorData ‖ clientDataHash) with this key");
        }
        if (!MessageDigest.isEqual(app.rpIdHash(), authData.rpIdHash())) {
            throw new AssertionRejectedException(AssertionCheck.RP_ID, "the rpIdHash is not that of " + app);
        }
        if (authData.signCount() <= storedCounter) {
            throw new AssertionRejectedException(AssertionCheck.COUNTER, "the counter " + authData.signCount()
                    + " is not greater than " + storedCounter);
        }
        return new VerifiedAssertion(authData.signCount());
    }

    private static boolean signatureHolds(byte[] publicKey, byte[] nonce, byte[] signature) {
        return EcdsaP256.verify(publicKey, nonce, signature);
    }

    private static JsonNode cbor(byte[] bytes, AttestationCheck check) {
        try {
            JsonNode node = CBOR.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw attestation(check, "not a CBOR map");
            }
            return node;
        } catch (JacksonException e) {
            throw attestation(check, "not CBOR: " + e.getOriginalMessage());
        }
    }

    private static String text(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value != null && value.isString() ? value.asString() : "";
    }

    private static byte[] binary(JsonNode object, String field, AttestationCheck check) {
        JsonNode value = object.get(field);
        if (value == null || !value.isBinary()) {
            throw attestation(check, field + " is not a byte string");
        }
        return value.binaryValue();
    }

    private static byte[] binaryOrThrow(JsonNode object, String field) {
        JsonNode value = object.get(field);
        if (value == null || !value.isBinary()) {
            throw new IllegalArgumentException(field + " is not a byte string");
        }
        return value.binaryValue();
    }

    private static AttestationRejectedException attestation(AttestationCheck check, String message) {
        return new AttestationRejectedException(check, message);
    }
}

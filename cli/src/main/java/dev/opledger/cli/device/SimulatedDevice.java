package dev.opledger.cli.device;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.internal.Digests;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An iPhone's App Attest key, simulated: {@code DCAppAttestService.attestKey} and {@code
 * generateAssertion} with the bytes Apple's produce, certified by the {@link DevAuthority} instead
 * of Apple. The keyId is SHA-256 of the 65-byte uncompressed public key; each assertion advances
 * the counter by one. Certificate validity follows the injected clock.
 */
public final class SimulatedDevice {

    private static final String FORMAT = "apple-appattest";
    private static final int HASH_BYTES = 32;

    private final PrivateKey privateKey;
    private final PublicKey publicKey;
    private final byte[] point;
    private final byte[] keyId;
    private final AppId app;
    private final AttestEnvironment environment;
    private final DeviceVariant variant;
    private final Clock clock;
    private long counter;

    private SimulatedDevice(PrivateKey privateKey, PublicKey publicKey, AppId app, AttestEnvironment environment,
            DeviceVariant variant, Clock clock, long counter) {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
        this.point = EcKeys.point(publicKey);
        this.keyId = Digests.sha256(point);
        this.app = app;
        this.environment = environment;
        this.variant = variant;
        this.clock = clock;
        this.counter = counter;
    }

    /** A device with a new key that has never asserted, behaving as an iPhone does. */
    public static SimulatedDevice create(AppId app, AttestEnvironment environment) {
        return create(app, environment, DeviceVariant.APPLE, Clock.systemUTC());
    }

    public static SimulatedDevice create(AppId app, AttestEnvironment environment, DeviceVariant variant, Clock clock) {
        KeyPair keys = EcKeys.generate(EcKeys.P256);
        return new SimulatedDevice(keys.getPrivate(), keys.getPublic(), app, environment, variant, clock, 0);
    }

    /**
     * A device whose key was kept: {@code counter} is the last counter it asserted with, so its
     * next assertion carries {@code counter + 1}.
     */
    public static SimulatedDevice restore(byte[] privateKeyPkcs8, byte[] publicKey, AppId app,
            AttestEnvironment environment, DeviceVariant variant, Clock clock, long counter) {
        PrivateKey privateKey = EcKeys.privateKey(privateKeyPkcs8);
        PublicKey key = EcKeys.publicKey(publicKey);
        if (!EcKeys.pair(privateKey, key)) {
            throw new IllegalArgumentException("the private key is not the public key's");
        }
        return new SimulatedDevice(privateKey, key, app, environment, variant, clock, counter);
    }

    /** The attestation object, as {@code attestKey(keyId, clientDataHash)} returns it. */
    public byte[] attestation(byte[] clientDataHash) {
        return attestation(publicKey, app, environment, variant, clock, clientDataHash);
    }

    /**
     * The attestation object an iPhone would return for a P-256 key held elsewhere (its 65-byte
     * uncompressed {@code point}), certified by the {@link DevAuthority}: for a client that has
     * its own software key but no App Attest authority, such as the Swift package's end-to-end
     * test on Linux. Its assertions are the client's to sign (counter from 1).
     *
     * @throws IllegalArgumentException if {@code point} is not a P-256 point or the hash not 32 bytes
     */
    public static byte[] attestationOf(byte[] point, AppId app, AttestEnvironment environment, byte[] clientDataHash) {
        return attestation(EcKeys.publicKey(point), app, environment, DeviceVariant.APPLE, Clock.systemUTC(),
                clientDataHash);
    }

    private static byte[] attestation(PublicKey publicKey, AppId app, AttestEnvironment environment,
            DeviceVariant variant, Clock clock, byte[] clientDataHash) {
        requireHash(clientDataHash);
        byte[] point = EcKeys.point(publicKey);
        byte[] keyId = Digests.sha256(point);
        Instant now = clock.instant();
        byte[] credentialId = variant.credentialIdNotKeyId() ? Digests.sha256(keyId) : keyId;
        byte[] authData = AuthenticatorDataWriter.attestation(rpIdHash(variant, app), variant.nonZeroCounter() ? 1 : 0,
                aaguid(variant, environment), credentialId, point, AuthenticatorDataWriter.extension(variant.ios27()));
        byte[] nonce = Digests.sha256(authData, signed(variant, clientDataHash));
        var authority = DevAuthority.get();
        List<X509Certificate> chain = LeafCertificates.chain(authority, publicKey, keyId, nonce, variant, now);
        byte[] receipt = ReceiptWriter.attestationReceipt(authority.receiptSignerIssuer(), authority.root(), app,
                chain.getFirst(), clientDataHash, environment, now);

        Map<String, Object> statement = new LinkedHashMap<>();
        statement.put("x5c", der(chain));
        statement.put("receipt", receipt);
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("fmt", FORMAT);
        object.put("attStmt", statement);
        object.put("authData", authData);
        return Cbor.encode(object);
    }

    /** The assertion, as {@code generateAssertion(keyId, clientDataHash)} returns it; the counter advances. */
    public synchronized byte[] assertion(byte[] clientDataHash) {
        requireHash(clientDataHash);
        if (counter == 0xffffffffL) {
            throw new IllegalStateException("the counter is exhausted: attest a new key");
        }
        counter++;
        byte[] authData = AuthenticatorDataWriter.assertion(rpIdHash(variant, app), counter,
                AuthenticatorDataWriter.extension(variant.ios27()));
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("signature", sign(Digests.sha256(authData, signed(variant, clientDataHash))));
        object.put("authenticatorData", authData);
        return Cbor.encode(object);
    }

    public byte[] keyId() {
        return keyId.clone();
    }

    /** The uncompressed P-256 point, 65 bytes. */
    public byte[] publicKey() {
        return point.clone();
    }

    /** PKCS#8 DER: what a store keeps to {@link #restore} the device. */
    public byte[] privateKey() {
        return privateKey.getEncoded();
    }

    /** The counter of the last assertion, 0 before the first. */
    public synchronized long counter() {
        return counter;
    }

    public AppId app() {
        return app;
    }

    public AttestEnvironment environment() {
        return environment;
    }

    private static byte[] rpIdHash(DeviceVariant variant, AppId app) {
        return variant.rpIdOf() != null ? variant.rpIdOf().rpIdHash() : app.rpIdHash();
    }

    private static byte[] aaguid(DeviceVariant variant, AttestEnvironment environment) {
        if (!variant.wrongEnvironment()) {
            return environment.aaguid();
        }
        return (environment == AttestEnvironment.DEVELOPMENT ? AttestEnvironment.PRODUCTION
                : AttestEnvironment.DEVELOPMENT).aaguid();
    }

    /** The clientDataHash that goes into the nonce: another one for the wrong-nonce fault. */
    private static byte[] signed(DeviceVariant variant, byte[] clientDataHash) {
        return variant.wrongNonce() ? Digests.sha256(clientDataHash) : clientDataHash;
    }

    private byte[] sign(byte[] nonce) {
        try {
            var signature = Signature.getInstance("SHA256withECDSA");
            signature.initSign(privateKey);
            signature.update(nonce);
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with a P-256 key: " + e.getMessage(), e);
        }
    }

    private static List<byte[]> der(List<X509Certificate> chain) {
        List<byte[]> encoded = new ArrayList<>();
        for (X509Certificate certificate : chain) {
            try {
                encoded.add(certificate.getEncoded());
            } catch (CertificateEncodingException e) {
                throw new IllegalStateException(e);
            }
        }
        return encoded;
    }

    private static void requireHash(byte[] clientDataHash) {
        if (clientDataHash.length != HASH_BYTES) {
            throw new IllegalArgumentException("a clientDataHash is " + HASH_BYTES + " bytes (SHA-256)");
        }
    }
}

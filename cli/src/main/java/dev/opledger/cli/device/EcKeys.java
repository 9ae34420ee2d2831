package dev.opledger.cli.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;

/**
 * Elliptic-curve keys on the JDK's provider: P-256 device keys in App Attest's 65-byte
 * uncompressed form ({@code 04 ‖ x ‖ y}), PKCS#8 private keys, and P-384 keys for certificate
 * authorities.
 */
public final class EcKeys {

    public static final String P256 = "secp256r1";
    public static final String P384 = "secp384r1";
    private static final int POINT_BYTES = 65;
    private static final AlgorithmIdentifier P256_ALGORITHM =
            new AlgorithmIdentifier(X9ObjectIdentifiers.id_ecPublicKey, SECObjectIdentifiers.secp256r1);

    private EcKeys() {
    }

    public static KeyPair generate(String curve) {
        try {
            var generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec(curve));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has " + curve, e);
        }
    }

    /** The uncompressed point of a P-256 key, as App Attest hashes it into the keyId. */
    public static byte[] point(PublicKey key) {
        var info = SubjectPublicKeyInfo.getInstance(key.getEncoded());
        byte[] point = info.getPublicKeyData().getBytes();
        if (!info.getAlgorithm().equals(P256_ALGORITHM) || point.length != POINT_BYTES || point[0] != 0x04) {
            throw new IllegalArgumentException("not an uncompressed P-256 key");
        }
        return point;
    }

    /**
     * The P-256 key of an uncompressed point. The JDK's KeyFactory does not check that the point
     * lies on the curve, so Bouncy Castle's decoder does it first, as the node's verifier does.
     */
    public static PublicKey publicKey(byte[] point) {
        if (point.length != POINT_BYTES || point[0] != 0x04) {
            throw new IllegalArgumentException("a P-256 public key is a 65-byte uncompressed point");
        }
        try {
            org.bouncycastle.asn1.x9.ECNamedCurveTable.getByName("secp256r1").getCurve().decodePoint(point);
            byte[] spki = new SubjectPublicKeyInfo(P256_ALGORITHM, point).getEncoded(ASN1Encoding.DER);
            return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(spki));
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a point on P-256: " + e.getMessage(), e);
        }
    }

    public static PrivateKey privateKey(byte[] pkcs8) {
        try {
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not a PKCS#8 EC private key: " + e.getMessage(), e);
        }
    }

    /** Whether the two halves belong together: a signature by one verifies with the other. */
    public static boolean pair(PrivateKey privateKey, PublicKey publicKey) {
        byte[] probe = "opledger key pair probe".getBytes(StandardCharsets.US_ASCII);
        try {
            var signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(privateKey);
            signer.update(probe);
            var verifier = Signature.getInstance("SHA256withECDSA");
            verifier.initVerify(publicKey);
            verifier.update(probe);
            return verifier.verify(signer.sign());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}

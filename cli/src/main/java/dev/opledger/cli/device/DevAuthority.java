package dev.opledger.cli.device;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * The development App Attest authority, committed in {@code dev-authority/}: a P-384 root (the
 * same certificate as the backend's {@value #ROOT_LOCATION}), a device CA that issues simulated
 * devices' leaf certificates, and a receipt signer under the root. The private keys are public
 * development material: only nodes that are told to trust the root accept what they sign. The
 * root's key was discarded when {@code DevAuthorityGenerator} made them.
 */
public final class DevAuthority {

    /** Where a node finds the development root: its local and test profiles trust this location. */
    public static final String ROOT_LOCATION = "classpath:attest/dev/opledger-dev-root.pem";
    static final String DIRECTORY = "dev-authority/";
    static final String ROOT_FILE = "opledger-dev-root.pem";
    static final String DEVICE_CA_FILE = "device-ca.pem";
    static final String DEVICE_CA_KEY_FILE = "device-ca.key.pem";
    static final String RECEIPT_SIGNER_FILE = "receipt-signer.pem";
    static final String RECEIPT_SIGNER_KEY_FILE = "receipt-signer.key.pem";

    /** Apple's App Attestation CA 1 signs leaves with ECDSA over SHA-256 despite its P-384 key; so does this one. */
    private static final String LEAF_SIGNATURE = "SHA256withECDSA";
    private static final String RECEIPT_SIGNATURE = "SHA256withECDSA";

    private final X509Certificate root;
    private final Issuer deviceCa;
    private final Issuer receiptSigner;

    private DevAuthority(X509Certificate root, Issuer deviceCa, Issuer receiptSigner) {
        this.root = root;
        this.deviceCa = deviceCa;
        this.receiptSigner = receiptSigner;
    }

    /** The authority from the class path; checked once: each key is the key of its certificate. */
    public static DevAuthority get() {
        return Loaded.AUTHORITY;
    }

    public X509Certificate root() {
        return root;
    }

    /** The intermediate that issues device leaf certificates, second in every attestation's x5c. */
    public X509Certificate deviceCa() {
        return deviceCa.certificate();
    }

    public X509Certificate receiptSigner() {
        return receiptSigner.certificate();
    }

    Issuer deviceCaIssuer() {
        return deviceCa;
    }

    Issuer receiptSignerIssuer() {
        return receiptSigner;
    }

    private static final class Loaded {
        static final DevAuthority AUTHORITY = new DevAuthority(
                Pem.certificate(read(ROOT_FILE)),
                issuer(DEVICE_CA_FILE, DEVICE_CA_KEY_FILE, LEAF_SIGNATURE),
                issuer(RECEIPT_SIGNER_FILE, RECEIPT_SIGNER_KEY_FILE, RECEIPT_SIGNATURE));

        private static Issuer issuer(String certificateFile, String keyFile, String signatureAlgorithm) {
            X509Certificate certificate = Pem.certificate(read(certificateFile));
            PrivateKey key = EcKeys.privateKey(Pem.decode(read(keyFile), "PRIVATE KEY"));
            if (!EcKeys.pair(key, certificate.getPublicKey())) {
                throw new IllegalStateException(DIRECTORY + keyFile + " is not the key of " + certificateFile);
            }
            return new Issuer(certificate, key, signatureAlgorithm);
        }

        private static String read(String file) {
            try (InputStream in = DevAuthority.class.getClassLoader().getResourceAsStream(DIRECTORY + file)) {
                if (in == null) {
                    throw new IllegalStateException("no class path resource " + DIRECTORY + file);
                }
                return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}

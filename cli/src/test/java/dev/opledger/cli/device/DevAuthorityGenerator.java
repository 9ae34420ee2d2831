package dev.opledger.cli.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Made the committed development authority, once. Not run by the build: its name is not one
 * surefire picks up, and it runs only when asked by a system property, so a {@code -Dtest} pattern
 * that happens to match it skips it. Running it again replaces every certificate and key, and
 * nodes must then be given the new root. From the repository root:
 *
 * <pre>
 * ./mvnw -B -pl cli -am test -Dtest=DevAuthorityGenerator -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dopledger.dev-authority.regenerate=true
 * </pre>
 *
 * <p>Writes the root certificate to {@code protocol/src/main/resources/attest/dev/} and
 * {@code cli/src/main/resources/dev-authority/}, and the device CA and the receipt signer with
 * their PKCS#8 keys to the latter. The root's private key stays in memory and is gone when this
 * ends: nothing more is ever signed by the root, so nobody can hold it.
 */
class DevAuthorityGenerator {

    /** RFC 5280 allows 64 characters in a common name: "dev" here, "development" in O. */
    static final String ROOT_NAME = "opledger dev App Attest root — NOT Apple, local/test only";
    static final String DEVICE_CA_NAME = "opledger development App Attest CA 1 — NOT Apple";
    static final String RECEIPT_SIGNER_NAME = "opledger development receipt signing — NOT Apple";
    static final int YEARS = 20;

    @Test
    @EnabledIfSystemProperty(named = "opledger.dev-authority.regenerate", matches = "true")
    void generate() throws IOException {
        Path repository = Path.of(".."); // surefire runs in the module's directory
        Path cli = repository.resolve("cli/src/main/resources").resolve(DevAuthority.DIRECTORY);
        Path protocol = repository.resolve("protocol/src/main/resources/attest/dev");
        Files.createDirectories(cli);
        Files.createDirectories(protocol);

        Instant notBefore = Instant.now().truncatedTo(ChronoUnit.DAYS);
        Instant notAfter = notBefore.atZone(ZoneOffset.UTC).plusYears(YEARS).toInstant().minus(Duration.ofSeconds(1));

        KeyPair rootKeys = EcKeys.generate(EcKeys.P384);
        X509Certificate root = Certificates.root(Certificates.name(ROOT_NAME), rootKeys, "SHA384withECDSA",
                notBefore, notAfter);
        var rootIssuer = new Issuer(root, rootKeys.getPrivate(), "SHA384withECDSA");

        KeyPair deviceCaKeys = EcKeys.generate(EcKeys.P384);
        X509Certificate deviceCa = Certificates.intermediate(rootIssuer, Certificates.name(DEVICE_CA_NAME),
                deviceCaKeys.getPublic(), notBefore, notAfter);

        KeyPair receiptKeys = EcKeys.generate(EcKeys.P256);
        X509Certificate receiptSigner = Certificates.endEntity(rootIssuer, Certificates.name(RECEIPT_SIGNER_NAME),
                receiptKeys.getPublic(), notBefore, notAfter, null, null);

        write(protocol.resolve(DevAuthority.ROOT_FILE), Pem.certificate(root));
        write(cli.resolve(DevAuthority.ROOT_FILE), Pem.certificate(root));
        write(cli.resolve(DevAuthority.DEVICE_CA_FILE), Pem.certificate(deviceCa));
        write(cli.resolve(DevAuthority.DEVICE_CA_KEY_FILE), Pem.encode("PRIVATE KEY", deviceCaKeys.getPrivate().getEncoded()));
        write(cli.resolve(DevAuthority.RECEIPT_SIGNER_FILE), Pem.certificate(receiptSigner));
        write(cli.resolve(DevAuthority.RECEIPT_SIGNER_KEY_FILE), Pem.encode("PRIVATE KEY", receiptKeys.getPrivate().getEncoded()));
        System.out.println("root SHA-256 fingerprint " + fingerprint(root) + ", valid " + notBefore + " – " + notAfter);
    }

    static String fingerprint(X509Certificate certificate) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.US_ASCII);
        System.out.println("wrote " + file);
    }
}

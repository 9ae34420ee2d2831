package dev.opledger.attest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The certificates App Attest verification trusts: Apple's two public roots, shipped in
 * {@code attest/}, always; extra PEM roots by file path or {@code classpath:} location for
 * development and tests only.
 */
public final class TrustRoots {

    public static final String APPLE_ATTESTATION_ROOT = "classpath:attest/Apple_App_Attestation_Root_CA.pem";
    public static final String APPLE_RECEIPT_ROOT = "classpath:attest/Apple_Root_CA_G3.pem";

    private TrustRoots() {
    }

    /** The verifier trusting Apple's roots and, for both attestations and receipts, {@code extra}. */
    public static AppAttestVerifier verifier(List<String> extraLocations) {
        Set<X509Certificate> extra = new HashSet<>();
        extraLocations.forEach(location -> extra.addAll(load(location)));
        Set<X509Certificate> attestation = new HashSet<>(load(APPLE_ATTESTATION_ROOT));
        Set<X509Certificate> receipt = new HashSet<>(load(APPLE_RECEIPT_ROOT));
        attestation.addAll(extra);
        receipt.addAll(extra);
        return new AppAttestVerifier(attestation, receipt);
    }

    /** Every certificate in a PEM file at a path or {@code classpath:} location. */
    public static List<X509Certificate> load(String location) {
        try (InputStream in = open(location)) {
            var certificates = CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
                    .map(X509Certificate.class::cast).toList();
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("no certificate in " + location);
            }
            return certificates;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trust root " + location, e);
        } catch (CertificateException e) {
            throw new IllegalArgumentException("trust root " + location + " is not PEM X.509: " + e.getMessage(), e);
        }
    }

    private static InputStream open(String location) throws IOException {
        if (location.startsWith("classpath:")) {
            String resource = location.substring("classpath:".length()).replaceFirst("^/", "");
            InputStream in = TrustRoots.class.getClassLoader().getResourceAsStream(resource);
            if (in == null) {
                throw new IOException("no classpath resource " + resource);
            }
            return in;
        }
        return Files.newInputStream(Path.of(location.startsWith("file:") ? location.substring(5) : location));
    }
}

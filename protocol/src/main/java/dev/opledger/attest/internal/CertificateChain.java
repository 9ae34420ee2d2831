package dev.opledger.attest.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1TaggedObject;

/**
 * The certificates of an App Attest attestation ({@code x5c}: leaf, then intermediates),
 * validated with the JDK's PKIX validator against the trusted roots at a given instant, without
 * revocation checks (Apple publishes none for App Attest).
 */
public final class CertificateChain {

    /** Apple's extension in the leaf that holds SHA-256(authData ‖ clientDataHash). */
    public static final String NONCE_EXTENSION = "1.2.840.113635.100.8.2";

    private CertificateChain() {
    }

    public static List<X509Certificate> parse(List<byte[]> x5c) {
        try {
            var factory = CertificateFactory.getInstance("X.509");
            List<X509Certificate> certificates = new ArrayList<>();
            for (byte[] der : x5c) {
                certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
            }
            return certificates;
        } catch (CertificateException e) {
            throw new IllegalArgumentException("a certificate in x5c is not X.509 DER: " + e.getMessage(), e);
        }
    }

    /** Throws {@link GeneralSecurityException} with the validator's reason when the path does not hold. */
    public static void validate(List<X509Certificate> chain, Set<X509Certificate> roots, Instant at)
            throws GeneralSecurityException {
        var path = CertificateFactory.getInstance("X.509").generateCertPath(chain);
        Set<TrustAnchor> anchors = roots.stream().map(root -> new TrustAnchor(root, null)).collect(Collectors.toSet());
        var parameters = new PKIXParameters(anchors);
        parameters.setRevocationEnabled(false);
        parameters.setDate(Date.from(at));
        CertPathValidator.getInstance("PKIX").validate(path, parameters);
    }

    /** The 32-byte nonce of the leaf: {@code SEQUENCE { [1] EXPLICIT OCTET STRING }}. */
    public static byte[] nonce(X509Certificate leaf) {
        byte[] extension = leaf.getExtensionValue(NONCE_EXTENSION);
        if (extension == null) {
            throw new IllegalArgumentException("the leaf certificate has no App Attest nonce extension");
        }
        try {
            var value = ASN1Primitive.fromByteArray(ASN1OctetString.getInstance(extension).getOctets());
            var tagged = ASN1TaggedObject.getInstance(ASN1Sequence.getInstance(value).getObjectAt(0));
            return ASN1OctetString.getInstance(tagged.getExplicitBaseObject()).getOctets();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("the App Attest nonce extension is malformed", e);
        }
    }
}

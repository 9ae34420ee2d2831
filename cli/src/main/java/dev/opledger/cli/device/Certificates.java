package dev.opledger.cli.device;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.jspecify.annotations.Nullable;

/**
 * Issues X.509 certificates with BouncyCastle's builder, signed by the JDK's providers: the
 * development authority's CAs and the device leaves below them.
 */
final class Certificates {

    static final String ORGANIZATION = "opledger development";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Certificates() {
    }

    /** {@code CN=commonName, O=opledger development}. */
    static X500Name name(String commonName) {
        return new X500NameBuilder(BCStyle.INSTANCE)
                .addRDN(BCStyle.CN, commonName)
                .addRDN(BCStyle.O, ORGANIZATION)
                .build();
    }

    /** A self-signed root certificate authority. */
    static X509Certificate root(X500Name subject, KeyPair keys, String signatureAlgorithm,
            Instant notBefore, Instant notAfter) {
        var builder = new JcaX509v3CertificateBuilder(subject, serial(), Date.from(notBefore), Date.from(notAfter),
                subject, keys.getPublic());
        return sign(builder, new CaExtensions(keys.getPublic(), null, -1), keys.getPrivate(), signatureAlgorithm);
    }

    /** An intermediate certificate authority that may sign end-entity certificates only. */
    static X509Certificate intermediate(Issuer issuer, X500Name subject, PublicKey key, Instant notBefore,
            Instant notAfter) {
        var builder = new JcaX509v3CertificateBuilder(issuer.certificate(), serial(), Date.from(notBefore),
                Date.from(notAfter), subject, key);
        return sign(builder, new CaExtensions(key, issuer.certificate(), 0), issuer.key(), issuer.signatureAlgorithm());
    }

    /**
     * An end-entity certificate for digital signatures, with one more non-critical extension
     * when {@code extraOid} is given.
     */
    static X509Certificate endEntity(Issuer issuer, X500Name subject, PublicKey key, Instant notBefore,
            Instant notAfter, @Nullable ASN1ObjectIdentifier extraOid,
            @Nullable ASN1Encodable extraValue) {
        var builder = new JcaX509v3CertificateBuilder(issuer.certificate(), serial(), Date.from(notBefore),
                Date.from(notAfter), subject, key);
        Extensions extensions = certificate -> {
            certificate.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            certificate.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            certificate.addExtension(Extension.authorityKeyIdentifier, false,
                    utils().createAuthorityKeyIdentifier(issuer.certificate()));
            if (extraOid != null && extraValue != null) {
                certificate.addExtension(extraOid, false, extraValue);
            }
        };
        return sign(builder, extensions, issuer.key(), issuer.signatureAlgorithm());
    }

    @FunctionalInterface
    private interface Extensions {
        void addTo(X509v3CertificateBuilder builder) throws CertIOException, GeneralSecurityException;
    }

    /** Basic constraints (CA, path length), key usage for signing certificates, key identifiers. */
    private record CaExtensions(PublicKey key, @Nullable X509Certificate issuer,
            int pathLength) implements Extensions {

        @Override
        public void addTo(X509v3CertificateBuilder builder) throws CertIOException, GeneralSecurityException {
            builder.addExtension(Extension.basicConstraints, true,
                    pathLength < 0 ? new BasicConstraints(true) : new BasicConstraints(pathLength));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            builder.addExtension(Extension.subjectKeyIdentifier, false, utils().createSubjectKeyIdentifier(key));
            if (issuer != null) {
                builder.addExtension(Extension.authorityKeyIdentifier, false,
                        utils().createAuthorityKeyIdentifier(issuer));
            }
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, Extensions extensions,
            PrivateKey key, String signatureAlgorithm) {
        try {
            extensions.addTo(builder);
            var signer = new JcaContentSignerBuilder(signatureAlgorithm).build(key);
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
        } catch (CertIOException | GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot issue a certificate: " + e.getMessage(), e);
        }
    }

    private static JcaX509ExtensionUtils utils() throws GeneralSecurityException {
        return new JcaX509ExtensionUtils();
    }

    private static BigInteger serial() {
        return new BigInteger(63, RANDOM).add(BigInteger.ONE);
    }
}

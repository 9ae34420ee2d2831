package dev.opledger.cli.device;

import java.security.KeyPair;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERTaggedObject;

/**
 * The {@code x5c} of an attestation: a leaf certificate for the device's key, named by its keyId
 * in hex and carrying the nonce in Apple's extension, valid from five minutes ago for three days
 * as Apple's are; then the CA that issued it.
 */
final class LeafCertificates {

    /** Apple's App Attest nonce extension: {@code SEQUENCE { [1] EXPLICIT OCTET STRING nonce }}. */
    static final ASN1ObjectIdentifier NONCE = new ASN1ObjectIdentifier("1.2.840.113635.100.8.2");
    static final Duration BACKDATE = Duration.ofMinutes(5);
    static final Duration LIFETIME = Duration.ofDays(3);

    private LeafCertificates() {
    }

    static List<X509Certificate> chain(DevAuthority authority, PublicKey key, byte[] keyId, byte[] nonce,
            DeviceVariant variant, Instant now) {
        Instant notBefore = now.minus(BACKDATE);
        Instant notAfter = now.plus(LIFETIME);
        if (variant.expiredBefore() != null) {
            notAfter = variant.expiredBefore().minusSeconds(1);
            notBefore = notAfter.minus(LIFETIME);
        }
        Issuer issuer = variant.untrustedChain() ? throwawayCa(now) : authority.deviceCaIssuer();
        var extension = new DERSequence(new DERTaggedObject(true, 1, new DEROctetString(nonce)));
        X509Certificate leaf = Certificates.endEntity(issuer, Certificates.name(HexFormat.of().formatHex(keyId)), key,
                notBefore, notAfter, NONCE, extension);
        return List.of(leaf, issuer.certificate());
    }

    /** A self-signed CA made for one attestation: no verifier trusts it. */
    private static Issuer throwawayCa(Instant now) {
        KeyPair keys = EcKeys.generate(EcKeys.P384);
        X509Certificate certificate = Certificates.root(Certificates.name("throwaway App Attest CA — trusted by nobody"),
                keys, "SHA384withECDSA", now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(30)));
        return new Issuer(certificate, keys.getPrivate(), "SHA256withECDSA");
    }
}

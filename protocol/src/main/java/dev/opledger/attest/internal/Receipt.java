package dev.opledger.attest.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1Set;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.cms.CMSObjectIdentifiers;
import org.bouncycastle.asn1.cms.ContentInfo;
import org.bouncycastle.asn1.cms.IssuerAndSerialNumber;
import org.bouncycastle.asn1.cms.SignedData;
import org.bouncycastle.asn1.cms.SignerInfo;
import org.bouncycastle.asn1.nist.NISTObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cms.CMSException;
import org.bouncycastle.cms.CMSSignedData;
import org.bouncycastle.cms.SignerInformation;
import org.bouncycastle.cms.jcajce.JcaSimpleSignerInfoVerifierBuilder;
import org.bouncycastle.operator.OperatorCreationException;

/**
 * Apple's fraud receipt, carried in an attestation: a CMS SignedData whose signer chains to Apple
 * Root CA - G3, over a set of {@code SEQUENCE {type, version, OCTET STRING value}} fields. Checked
 * here: the signature, the signer's chain at the given instant, the app id (field 2), the
 * attested certificate (field 3, the attestation's leaf) and the receipt type (field 6, ATTEST).
 * The risk metric is not read: that needs a later exchange with Apple.
 *
 * <p>The CMS is read strictly, as Apple writes it: BouncyCastle tolerates differences in parts
 * the signature does not cover (content types, versions, algorithm identifiers, the encoding of
 * the signer's issuer, certificates it does not use), and a receipt is evidence: any byte of it
 * changed must make it fail, not only the signed ones.
 */
public final class Receipt {

    private static final int APP_ID = 2;
    private static final int ATTESTED_CERTIFICATE = 3;
    private static final int RECEIPT_TYPE = 6;

    private Receipt() {
    }

    /** Throws {@link IllegalArgumentException} with the reason when the receipt does not hold. */
    public static void check(byte[] receipt, Set<X509Certificate> roots, Instant at, String appId,
            X509Certificate attestedLeaf) {
        try {
            var cms = new CMSSignedData(receipt);
            Collection<SignerInformation> signers = cms.getSignerInfos().getSigners();
            if (signers.size() != 1) {
                throw new IllegalArgumentException("the receipt has " + signers.size() + " signers, not 1");
            }
            SignerInformation signer = signers.iterator().next();
            Collection<X509CertificateHolder> signerCertificates = cms.getCertificates().getMatches(signer.getSID());
            if (signerCertificates.size() != 1) {
                throw new IllegalArgumentException("the receipt does not carry its signer's certificate");
            }
            var converter = new JcaX509CertificateConverter();
            X509Certificate signerCertificate = converter.getCertificate(signerCertificates.iterator().next());
            List<X509Certificate> chain = new ArrayList<>(List.of(signerCertificate));
            for (X509CertificateHolder holder : cms.getCertificates().getMatches(null)) {
                X509Certificate certificate = converter.getCertificate(holder);
                boolean selfSigned = certificate.getSubjectX500Principal().equals(certificate.getIssuerX500Principal());
                if (!certificate.equals(signerCertificate) && !selfSigned) {
                    chain.add(certificate); // intermediates; an embedded root is never trusted for itself
                }
            }
            CertificateChain.validate(chain, roots, at);
            requireStrictForm(receipt, cms, signer, signerCertificate, chain, roots);
            if (!signer.verify(new JcaSimpleSignerInfoVerifierBuilder().build(signerCertificate))) {
                throw new IllegalArgumentException("the receipt's signature does not verify");
            }
            Map<Integer, byte[]> fields = fields((byte[]) cms.getSignedContent().getContent());
            requireField(fields, APP_ID, appId.getBytes(StandardCharsets.UTF_8), "app id");
            requireField(fields, ATTESTED_CERTIFICATE, attestedLeaf.getEncoded(), "attested certificate");
            requireField(fields, RECEIPT_TYPE, "ATTEST".getBytes(StandardCharsets.US_ASCII), "receipt type");
        } catch (CMSException | GeneralSecurityException | OperatorCreationException | IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException known) {
                throw known;
            }
            throw new IllegalArgumentException("the receipt is not a valid Apple receipt: " + e.getMessage(), e);
        }
    }

    private static void requireStrictForm(byte[] receipt, CMSSignedData cms, SignerInformation signer,
            X509Certificate signerCertificate,
            List<X509Certificate> chain, Set<X509Certificate> roots) throws IOException, GeneralSecurityException {
        ContentInfo info = cms.toASN1Structure();
        require(info.getContentType().equals(CMSObjectIdentifiers.signedData), "content type is not signedData");
        SignedData signedData = SignedData.getInstance(info.getContent());
        require(signedData.getVersion().hasValue(1), "SignedData version is not 1");
        require(signedData.getEncapContentInfo().getContentType().equals(CMSObjectIdentifiers.data),
                "encapsulated content type is not data");
        AlgorithmIdentifier digest = signer.getDigestAlgorithmID();
        require(ECDSA_WITH.containsKey(digest.getAlgorithm()), "digest algorithm is not SHA-2");
        // RFC 5754: SHA-2 parameters are absent or NULL (Apple writes NULL), nothing else
        require(digest.getParameters() == null || DERNull.INSTANCE.equals(digest.getParameters()),
                "digest algorithm parameters are neither absent nor NULL");
        byte[] canonicalDigest = digest.getEncoded(ASN1Encoding.DER);
        ASN1Set digestAlgorithms = signedData.getDigestAlgorithms();
        require(digestAlgorithms.size() == 1
                        && Arrays.equals(digestAlgorithms.getObjectAt(0).toASN1Primitive().getEncoded(ASN1Encoding.DER),
                                canonicalDigest),
                "digestAlgorithms is not the signer's digest algorithm");
        SignerInfo signerInfo = signer.toASN1Structure();
        require(signerInfo.getVersion().hasValue(1), "SignerInfo version is not 1");
        var signatureAlgorithm = signerInfo.getDigestEncryptionAlgorithm();
        require(signatureAlgorithm.getParameters() == null
                        && signatureAlgorithm.getAlgorithm().equals(ECDSA_WITH.get(digest.getAlgorithm())),
                "signature algorithm is not ECDSA with the digest algorithm");
        var issuer = IssuerAndSerialNumber.getInstance(signerInfo.getSID().getId()).getName();
        require(Arrays.equals(issuer.getEncoded(ASN1Encoding.DER), signerCertificate.getIssuerX500Principal().getEncoded()),
                "the signer's issuer is not written as in its certificate");
        Collection<X509CertificateHolder> certificates = cms.getCertificates().getMatches(null);
        require(signedData.getCertificates() != null && signedData.getCertificates().size() == certificates.size(),
                "the certificates field holds something other than certificates");
        for (X509CertificateHolder holder : certificates) {
            byte[] encoded = holder.getEncoded();
            boolean trustedRoot = roots.stream().anyMatch(root -> encodedEquals(root, encoded));
            boolean inChain = chain.stream().anyMatch(certificate -> encodedEquals(certificate, encoded));
            require(trustedRoot || inChain, "the receipt carries a certificate outside its chain");
            require(holder.toASN1Structure().getSignature().getPadBits() == 0, "a certificate's signature has pad bits");
            // the parser repairs some damage (a SET where the certificate's SEQUENCE belongs): the
            // certificate must stand in the receipt exactly as it re-encodes
            require(indexOf(receipt, encoded) >= 0, "a certificate is not stored in DER");
        }
    }

    private static final Map<ASN1ObjectIdentifier, ASN1ObjectIdentifier> ECDSA_WITH = Map.of(
            NISTObjectIdentifiers.id_sha256, X9ObjectIdentifiers.ecdsa_with_SHA256,
            NISTObjectIdentifiers.id_sha384, X9ObjectIdentifiers.ecdsa_with_SHA384,
            NISTObjectIdentifiers.id_sha512, X9ObjectIdentifiers.ecdsa_with_SHA512);

    private static boolean encodedEquals(X509Certificate certificate, byte[] encoded) {
        try {
            return Arrays.equals(certificate.getEncoded(), encoded);
        } catch (java.security.cert.CertificateEncodingException e) {
            return false;
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static void require(boolean condition, String reason) {
        if (!condition) {
            throw new IllegalArgumentException("the receipt is not in Apple's form: " + reason);
        }
    }

    private static Map<Integer, byte[]> fields(byte[] content) throws IOException {
        Map<Integer, byte[]> fields = new HashMap<>();
        for (var element : ASN1Set.getInstance(ASN1Primitive.fromByteArray(content))) {
            var field = ASN1Sequence.getInstance(element);
            int type = ASN1Integer.getInstance(field.getObjectAt(0)).intValueExact();
            fields.put(type, ASN1OctetString.getInstance(field.getObjectAt(2)).getOctets());
        }
        return fields;
    }

    private static void requireField(Map<Integer, byte[]> fields, int type, byte[] expected, String name) {
        byte[] actual = fields.get(type);
        if (actual == null || !MessageDigest.isEqual(actual, expected)) {
            throw new IllegalArgumentException("the receipt's " + name + " (field " + type + ") does not match");
        }
    }
}

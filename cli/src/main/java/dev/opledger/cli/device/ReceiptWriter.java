package dev.opledger.cli.device;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.DERSet;
import org.bouncycastle.asn1.cms.Attribute;
import org.bouncycastle.asn1.cms.AttributeTable;
import org.bouncycastle.asn1.cms.CMSAttributes;
import org.bouncycastle.asn1.cms.Time;
import org.bouncycastle.cert.jcajce.JcaCertStore;
import org.bouncycastle.cms.CMSException;
import org.bouncycastle.cms.CMSProcessableByteArray;
import org.bouncycastle.cms.CMSSignedDataGenerator;
import org.bouncycastle.cms.DefaultSignedAttributeTableGenerator;
import org.bouncycastle.cms.jcajce.JcaSignerInfoGeneratorBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaDigestCalculatorProviderBuilder;

/**
 * The fraud receipt of an attestation, in the form of Apple's: a DER CMS SignedData (version 1,
 * id-data content, SHA-256, one SignerInfo of version 1 naming its signer by issuer and serial
 * number, ECDSA with SHA-256) carrying the signer's certificate and the root, over a DER SET of
 * {@code SEQUENCE {INTEGER type, INTEGER version, OCTET STRING value}}: 2 app id, 3 the attested
 * leaf certificate, 4 clientDataHash, 5 an opaque token, 6 "ATTEST", 7 "sandbox" in development,
 * 12 creation and 21 expiry time.
 */
final class ReceiptWriter {

    private static final int VERSION = 1;
    private static final Duration LIFETIME = Duration.ofDays(90);
    private static final SecureRandom RANDOM = new SecureRandom();

    private ReceiptWriter() {
    }

    static byte[] attestationReceipt(Issuer signer, X509Certificate root, AppId app, X509Certificate leaf,
            byte[] clientDataHash, AttestEnvironment environment, Instant now) {
        try {
            var fields = new ASN1EncodableVector();
            fields.add(field(2, app.value().getBytes(StandardCharsets.UTF_8)));
            fields.add(field(3, leaf.getEncoded()));
            fields.add(field(4, clientDataHash));
            fields.add(field(5, token()));
            fields.add(field(6, ascii("ATTEST")));
            if (environment == AttestEnvironment.DEVELOPMENT) {
                fields.add(field(7, ascii("sandbox")));
            }
            fields.add(field(12, ascii(now.truncatedTo(ChronoUnit.MILLIS).toString())));
            fields.add(field(21, ascii(now.plus(LIFETIME).truncatedTo(ChronoUnit.MILLIS).toString())));
            return sign(new DERSet(fields).getEncoded(ASN1Encoding.DER), signer, root, now);
        } catch (IOException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot encode a receipt: " + e.getMessage(), e);
        }
    }

    private static byte[] sign(byte[] content, Issuer signer, X509Certificate root, Instant now) {
        try {
            var signingTime = new Attribute(CMSAttributes.signingTime, new DERSet(new Time(Date.from(now))));
            var signerInfo = new JcaSignerInfoGeneratorBuilder(new JcaDigestCalculatorProviderBuilder().build())
                    .setSignedAttributeGenerator(new DefaultSignedAttributeTableGenerator(new AttributeTable(signingTime)))
                    .build(new JcaContentSignerBuilder(signer.signatureAlgorithm()).build(signer.key()),
                            signer.certificate());
            var generator = new CMSSignedDataGenerator();
            generator.addSignerInfoGenerator(signerInfo);
            generator.addCertificates(new JcaCertStore(List.of(signer.certificate(), root)));
            return generator.generate(new CMSProcessableByteArray(content), true).getEncoded(ASN1Encoding.DER);
        } catch (CMSException | OperatorCreationException | CertificateEncodingException | IOException e) {
            throw new IllegalStateException("cannot sign a receipt: " + e.getMessage(), e);
        }
    }

    private static DERSequence field(int type, byte[] value) {
        return new DERSequence(new ASN1Encodable[] {
            new ASN1Integer(type), new ASN1Integer(VERSION), new DEROctetString(value)});
    }

    private static byte[] token() {
        byte[] token = new byte[48];
        RANDOM.nextBytes(token);
        return ascii(Base64.getEncoder().encodeToString(token));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}

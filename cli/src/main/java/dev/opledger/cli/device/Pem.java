package dev.opledger.cli.device;

import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.regex.Pattern;

/** PEM (RFC 7468) text of certificates, PKCS#8 private keys and SubjectPublicKeyInfo public keys. */
public final class Pem {

    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)\\s*-----END \\1-----");

    private Pem() {
    }

    /** The DER bytes of the first block labelled {@code label}, e.g. {@code PRIVATE KEY}. */
    public static byte[] decode(String pem, String label) {
        var matcher = BLOCK.matcher(pem);
        while (matcher.find()) {
            if (matcher.group(1).equals(label)) {
                return Base64.getMimeDecoder().decode(matcher.group(2));
            }
        }
        throw new IllegalArgumentException("no PEM block labelled " + label);
    }

    public static String encode(String label, byte[] der) {
        String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
    }

    public static X509Certificate certificate(String pem) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(decode(pem, "CERTIFICATE")));
        } catch (CertificateException e) {
            throw new IllegalArgumentException("not an X.509 certificate: " + e.getMessage(), e);
        }
    }

    public static String certificate(X509Certificate certificate) {
        try {
            return encode("CERTIFICATE", certificate.getEncoded());
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}

package dev.opledger.cli.device;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * A certificate authority able to sign: its certificate and private key, and the signature
 * algorithm it signs with.
 */
record Issuer(X509Certificate certificate, PrivateKey key, String signatureAlgorithm) {
}

package dev.opledger.cli.command;

import dev.opledger.cli.device.EcKeys;
import dev.opledger.cli.device.Pem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** Byte inputs on the command line: base64 (standard or URL alphabet, padded or not) and P-256 public keys. */
final class Inputs {

    private static final int POINT_BYTES = 65;

    private Inputs() {
    }

    static byte[] base64(String option, String text) {
        String standard = text.replaceAll("\\s", "").replace('-', '+').replace('_', '/');
        try {
            return Base64.getDecoder().decode(standard);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + " is not base64: " + e.getMessage());
        }
    }

    /**
     * The 65-byte point of a P-256 public key given as a PEM file ({@code PUBLIC KEY}) or in
     * base64 as the point itself or as SubjectPublicKeyInfo DER.
     */
    static byte[] publicKey(String option, String text) {
        try {
            if (isFile(text)) {
                return point(Pem.decode(Files.readString(Path.of(text)), "PUBLIC KEY"));
            }
            byte[] bytes = base64(option, text);
            if (bytes.length == POINT_BYTES) {
                EcKeys.publicKey(bytes); // refuses points off the curve
                return bytes;
            }
            return point(bytes);
        } catch (IOException | IllegalArgumentException e) {
            throw new UsageException(option + " is not a P-256 public key (a PEM file, or base64 of the 65-byte point): "
                    + e.getMessage());
        }
    }

    private static boolean isFile(String text) {
        try {
            return Files.isRegularFile(Path.of(text));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static byte[] point(byte[] subjectPublicKeyInfo) {
        try {
            return EcKeys.point(KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(subjectPublicKeyInfo)));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}

package dev.opledger.operation;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** SHA-256 of the RFC 8785 canonical form of a command; lowercase hex in JSON. */
public record PayloadHash(byte[] bytes) {

    private static final HexFormat HEX = HexFormat.of();

    public PayloadHash {
        if (bytes.length != 32) {
            throw new IllegalArgumentException("a payload hash is 32 bytes");
        }
        bytes = bytes.clone();
    }

    public static PayloadHash sha256(byte[] canonicalJson) {
        try {
            return new PayloadHash(MessageDigest.getInstance("SHA-256").digest(canonicalJson));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    public String hex() {
        return HEX.formatHex(bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PayloadHash that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return hex();
    }
}

package dev.opledger.attest.internal;

import java.math.BigInteger;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;

/** P-256 public keys in App Attest's form: the 65-byte uncompressed point {@code 04 ‖ x ‖ y}. */
public final class P256 {

    private static final int COORDINATE = 32;

    private P256() {
    }

    /** The uncompressed point of a P-256 key; any other key is an IllegalArgumentException. */
    public static byte[] uncompressed(PublicKey key) {
        if (!(key instanceof ECPublicKey ec) || ec.getParams().getCurve().getField().getFieldSize() != 256) {
            throw new IllegalArgumentException("not a P-256 key");
        }
        byte[] point = new byte[1 + 2 * COORDINATE];
        point[0] = 0x04;
        fixed(ec.getW().getAffineX(), point, 1);
        fixed(ec.getW().getAffineY(), point, 1 + COORDINATE);
        return point;
    }

    private static void fixed(BigInteger value, byte[] into, int offset) {
        byte[] bytes = value.toByteArray(); // may carry a sign byte or be short
        int length = Math.min(bytes.length, COORDINATE);
        System.arraycopy(bytes, bytes.length - length, into, offset + COORDINATE - length, length);
    }
}

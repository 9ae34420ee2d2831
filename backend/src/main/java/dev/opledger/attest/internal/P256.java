package dev.opledger.attest.internal;

import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.util.Arrays;

/** P-256 public keys in App Attest's form: the 65-byte uncompressed point {@code 04 ‖ x ‖ y}. */
public final class P256 {

    private static final int COORDINATE = 32;
    private static final ECParameterSpec CURVE = curve();

    private P256() {
    }

    /** The uncompressed point of a P-256 key; empty-handed callers get an exception. */
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

    public static ECPublicKey publicKey(byte[] uncompressed) {
        if (uncompressed.length != 1 + 2 * COORDINATE || uncompressed[0] != 0x04) {
            throw new IllegalArgumentException("not an uncompressed P-256 point");
        }
        var x = new BigInteger(1, Arrays.copyOfRange(uncompressed, 1, 1 + COORDINATE));
        var y = new BigInteger(1, Arrays.copyOfRange(uncompressed, 1 + COORDINATE, uncompressed.length));
        try {
            return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(new ECPoint(x, y), CURVE));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not a point on P-256", e);
        }
    }

    private static void fixed(BigInteger value, byte[] into, int offset) {
        byte[] bytes = value.toByteArray(); // may carry a sign byte or be short
        int length = Math.min(bytes.length, COORDINATE);
        System.arraycopy(bytes, bytes.length - length, into, offset + COORDINATE - length, length);
    }

    private static ECParameterSpec curve() {
        try {
            var parameters = AlgorithmParameters.getInstance("EC");
            parameters.init(new ECGenParameterSpec("secp256r1"));
            return parameters.getParameterSpec(ECParameterSpec.class);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has P-256", e);
        }
    }
}

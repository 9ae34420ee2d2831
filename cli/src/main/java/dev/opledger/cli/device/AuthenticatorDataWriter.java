package dev.opledger.cli.device;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * WebAuthn authenticator data as App Attest writes it: {@code rpIdHash(32) ‖ flags(1) ‖
 * signCount(4, big-endian)}, for an attestation followed by {@code aaguid(16) ‖
 * credentialIdLength(2) ‖ credentialId ‖ COSE key}, then any extension data. Flags are 0x40 in
 * both, as real iPhones write them (the attested-credential bit, set even in assertions); the
 * extension-data bit is never set, also when iOS 27 appends its map.
 */
final class AuthenticatorDataWriter {

    static final int FLAGS = 0x40;
    /** What iOS 27 appends; its content is not specified, a verifier must only keep it. */
    static final Map<String, Object> IOS27_EXTENSION = Map.of("ios27", 1);

    private AuthenticatorDataWriter() {
    }

    static byte[] attestation(byte[] rpIdHash, long signCount, byte[] aaguid, byte[] credentialId, byte[] point,
            byte[] extension) {
        byte[] key = Cbor.encode(coseKey(point));
        return ByteBuffer.allocate(37 + 16 + 2 + credentialId.length + key.length + extension.length)
                .put(header(rpIdHash, signCount))
                .put(aaguid)
                .putShort((short) credentialId.length)
                .put(credentialId)
                .put(key)
                .put(extension)
                .array();
    }

    static byte[] assertion(byte[] rpIdHash, long counter, byte[] extension) {
        return ByteBuffer.allocate(37 + extension.length).put(header(rpIdHash, counter)).put(extension).array();
    }

    static byte[] extension(boolean ios27) {
        return ios27 ? Cbor.encode(IOS27_EXTENSION) : new byte[0];
    }

    private static byte[] header(byte[] rpIdHash, long signCount) {
        if (signCount < 0 || signCount > 0xffffffffL) {
            throw new IllegalArgumentException("a sign count is an unsigned 32-bit number");
        }
        return ByteBuffer.allocate(37).put(rpIdHash).put((byte) FLAGS).putInt((int) signCount).array();
    }

    /** COSE_Key (RFC 9053) of a P-256 key: kty EC2, alg ES256, crv P-256, x, y. */
    private static Map<Integer, Object> coseKey(byte[] point) {
        Map<Integer, Object> key = new LinkedHashMap<>();
        key.put(1, 2);
        key.put(3, -7);
        key.put(-1, 1);
        key.put(-2, Arrays.copyOfRange(point, 1, 33));
        key.put(-3, Arrays.copyOfRange(point, 33, 65));
        return key;
    }
}

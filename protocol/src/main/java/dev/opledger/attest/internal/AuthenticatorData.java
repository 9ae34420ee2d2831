package dev.opledger.attest.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * WebAuthn authenticator data as App Attest writes it: {@code rpIdHash(32) ‖ flags(1) ‖
 * signCount(4)}, then for an attestation the attested credential data ({@code aaguid(16) ‖
 * credentialIdLength(2) ‖ credentialId ‖ COSE key}). Whatever follows the COSE key is kept as
 * extension data whether or not the ED flag is set: iOS 27 appends a CBOR map there with the
 * flag clear.
 *
 * @param credential the attested credential data; null in an assertion's authenticator data
 * @param extensionData the bytes after the fixed part (assertion) or after the COSE key
 */
public record AuthenticatorData(
        byte[] rpIdHash, int flags, long signCount, @Nullable AttestedCredential credential, byte[] extensionData) {

    private static final int HEADER = 37;
    private static final int ATTESTED_CREDENTIAL_FLAG = 0x40;
    // the COSE key is read as one value out of the middle of the authenticator data
    private static final CBORMapper CBOR = CBORMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** aaguid, credential id and the credential's COSE public key (kty 2, crv 1: x and y). */
    public record AttestedCredential(byte[] aaguid, byte[] credentialId, byte[] x, byte[] y) {
    }

    public static AuthenticatorData ofAssertion(byte[] data) {
        requireLength(data, HEADER);
        return new AuthenticatorData(Arrays.copyOf(data, 32), data[32] & 0xff, signCount(data), null,
                Arrays.copyOfRange(data, HEADER, data.length));
    }

    public static AuthenticatorData ofAttestation(byte[] data) {
        requireLength(data, HEADER + 18);
        int flags = data[32] & 0xff;
        if ((flags & ATTESTED_CREDENTIAL_FLAG) == 0) {
            throw new IllegalArgumentException("the authenticator data has no attested credential data");
        }
        byte[] aaguid = Arrays.copyOfRange(data, HEADER, HEADER + 16);
        int idLength = ((data[HEADER + 16] & 0xff) << 8) | (data[HEADER + 17] & 0xff);
        int keyStart = HEADER + 18 + idLength;
        requireLength(data, keyStart + 1);
        byte[] credentialId = Arrays.copyOfRange(data, HEADER + 18, keyStart);
        try (JsonParser parser = CBOR.createParser(data, keyStart, data.length - keyStart)) {
            JsonNode key = CBOR.readTree(parser);
            int keyEnd = (int) parser.currentLocation().getByteOffset(); // an index into data, not into the slice
            if (key == null || !key.isObject()) {
                throw new IllegalArgumentException("the credential public key is not a COSE map");
            }
            var credential = new AttestedCredential(aaguid, credentialId, coordinate(key, "-2"), coordinate(key, "-3"));
            return new AuthenticatorData(Arrays.copyOf(data, 32), flags, signCount(data), credential,
                    Arrays.copyOfRange(data, keyEnd, data.length));
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the credential public key is not CBOR: " + e.getOriginalMessage(), e);
        }
    }

    private static byte[] coordinate(JsonNode key, String label) {
        JsonNode value = key.get(label);
        if (value == null || !value.isBinary()) {
            throw new IllegalArgumentException("the COSE key has no " + label + " coordinate");
        }
        return value.binaryValue();
    }

    private static long signCount(byte[] data) {
        return ByteBuffer.wrap(data, 33, 4).getInt() & 0xffffffffL;
    }

    private static void requireLength(byte[] data, int length) {
        if (data.length < length) {
            throw new IllegalArgumentException("authenticator data of " + data.length + " bytes is too short");
        }
    }
}

package dev.opledger.attest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Which App Attest environment a key belongs to, told by the aaguid of its attestation. */
public enum AttestEnvironment {
    DEVELOPMENT("appattestdevelop"),
    PRODUCTION("appattest\0\0\0\0\0\0\0");

    private final byte[] aaguid;

    AttestEnvironment(String aaguid) {
        this.aaguid = aaguid.getBytes(StandardCharsets.US_ASCII);
    }

    public byte[] aaguid() {
        return aaguid.clone();
    }

    public boolean matches(byte[] aaguid) {
        return Arrays.equals(this.aaguid, aaguid);
    }
}

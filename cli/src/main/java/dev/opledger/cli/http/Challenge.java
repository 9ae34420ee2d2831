package dev.opledger.cli.http;

import java.util.Base64;

/**
 * A single-use challenge from {@code POST /v1/attest/challenges}.
 *
 * @param text the base64url form the node sent, echoed back as it came
 * @param expiresAt when the node stops accepting it, as the node wrote it
 */
public record Challenge(String text, String expiresAt) {

    /** The challenge's bytes (32 from a well-behaved node). */
    public byte[] bytes() {
        return Base64.getUrlDecoder().decode(text);
    }
}

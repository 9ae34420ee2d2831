package dev.opledger.attest;

import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * The App Attest headers of one attempt, decoded: {@code App-Attest-Key-Id} (base64),
 * {@code App-Attest-Challenge} (base64url, 32 bytes) and {@code App-Attest-Assertion} (base64).
 */
public record AttemptProof(byte[] keyId, byte[] challenge, byte[] assertion) {

    /**
     * Empty-handed ({@code null}) when none of the three headers is present; refused as
     * assertion-invalid when only some are, or when one does not decode.
     */
    public static @Nullable AttemptProof of(@Nullable String keyId, @Nullable String challenge,
            @Nullable String assertion) {
        if (keyId == null && challenge == null && assertion == null) {
            return null;
        }
        if (keyId == null || challenge == null || assertion == null) {
            throw invalid("send all three of App-Attest-Key-Id, App-Attest-Challenge and App-Attest-Assertion");
        }
        try {
            byte[] decodedChallenge = Codec.base64Url(challenge, "App-Attest-Challenge");
            if (decodedChallenge.length != ClientData.CHALLENGE_BYTES) {
                throw invalid("App-Attest-Challenge is not a 32-byte challenge");
            }
            return new AttemptProof(Codec.base64(keyId, "App-Attest-Key-Id"), decodedChallenge,
                    Codec.base64(assertion, "App-Attest-Assertion"));
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    private static AttestRefusedException invalid(String message) {
        return new AttestRefusedException(AttestRefusal.ASSERTION_INVALID, message, "FORMAT");
    }

    /** The encodings of PROTOCOL.md; base64url is accepted with or without padding. */
    public static final class Codec {

        private Codec() {
        }

        /** @throws IllegalArgumentException naming {@code what} when the text is not base64 */
        public static byte[] base64(String text, String what) {
            try {
                return Base64.getDecoder().decode(text.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + " is not base64");
            }
        }

        /** @throws IllegalArgumentException naming {@code what} when the text is not base64url */
        public static byte[] base64Url(String text, String what) {
            try {
                return Base64.getUrlDecoder().decode(text.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + " is not base64url");
            }
        }

        public static String toBase64(byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }

        public static String toBase64Url(byte[] bytes) {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        }
    }
}

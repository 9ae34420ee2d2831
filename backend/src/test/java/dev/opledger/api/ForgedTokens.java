package dev.opledger.api;

import dev.opledger.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * JWTs written from their JSON text, so a test controls every byte of the claims: a numeric or
 * lone-surrogate {@code sub}, no {@code exp}, {@code alg: none}. A JWT library would refuse to
 * write some of these or would repair them.
 */
final class ForgedTokens {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private ForgedTokens() {
    }

    /** A token the test profile accepts: HS256 with its secret, {@code sub}, {@code iat} and {@code exp}. */
    static String valid(String subject) {
        return signed(TestTokens.TEST_SECRET, "{\"sub\":\"" + subject + "\"," + lifetime(-60, 3600) + "}");
    }

    /** {@code "iat":…,"exp":…} relative to now, in seconds. */
    static String lifetime(long issuedOffset, long expiresOffset) {
        long now = Instant.now().getEpochSecond();
        return "\"iat\":" + (now + issuedOffset) + ",\"exp\":" + (now + expiresOffset);
    }

    static String iat() {
        return "\"iat\":" + (Instant.now().getEpochSecond() - 60);
    }

    static String signed(String secret, String claimsJson) {
        String signingInput = part("{\"alg\":\"HS256\",\"typ\":\"JWT\"}") + "." + part(claimsJson);
        try {
            var mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return signingInput + "." + BASE64URL.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String unsigned(String claimsJson) {
        return part("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + part(claimsJson) + ".";
    }

    private static String part(String json) {
        return BASE64URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}

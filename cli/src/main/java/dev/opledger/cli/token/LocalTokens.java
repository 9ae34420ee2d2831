package dev.opledger.cli.token;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * HS256 JWTs (RFC 7519) with the claims {@code sub}, {@code iat} and {@code exp}, as a node in
 * the local profile accepts them: signed with {@code opledger.local.jwt-secret}, whose default is
 * {@value #DEFAULT_SECRET} and which {@value #SECRET_VARIABLE} overrides, as it does for the node.
 */
public final class LocalTokens {

    public static final String DEFAULT_SECRET = "opledger-local-development-secret-not-for-production";
    public static final String SECRET_VARIABLE = "OPLEDGER_LOCAL_JWT_SECRET";
    /** HS256 needs a key of at least 256 bits; the node refuses shorter secrets too. */
    public static final int MIN_SECRET_BYTES = 32;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private LocalTokens() {
    }

    /** The secret a local node uses, given the environment's variables. */
    public static String secret(Map<String, String> environment) {
        String secret = environment.get(SECRET_VARIABLE);
        return secret == null || secret.isEmpty() ? DEFAULT_SECRET : secret;
    }

    public static String mint(String subject, String secret, Instant issuedAt, Duration lifetime) {
        byte[] key = secret.getBytes(StandardCharsets.UTF_8);
        if (key.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("an HS256 secret is at least " + MIN_SECRET_BYTES + " bytes");
        }
        if (subject.isBlank()) {
            throw new IllegalArgumentException("a token needs a subject");
        }
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("a token's lifetime is positive");
        }
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", "HS256");
        header.put("typ", "JWT");
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", subject);
        claims.put("iat", issuedAt.getEpochSecond());
        claims.put("exp", issuedAt.plus(lifetime).getEpochSecond());
        String signingInput = BASE64URL.encodeToString(JSON.writeValueAsBytes(header)) + "."
                + BASE64URL.encodeToString(JSON.writeValueAsBytes(claims));
        return signingInput + "." + BASE64URL.encodeToString(hmac(key, signingInput));
    }

    /** The {@code sub} claim of a token, read without checking its signature (the node checks it). */
    public static String subject(String token) {
        String[] parts = token.split("\\.");
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a JWT: it has " + parts.length + " parts, not 3");
        }
        try {
            var claims = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
            var subject = claims.get("sub");
            if (subject == null || !subject.isString() || subject.asString().isBlank()) {
                throw new IllegalArgumentException("the token has no sub claim");
            }
            return subject.asString();
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the token's claims are not JSON", e);
        }
    }

    private static byte[] hmac(byte[] key, String signingInput) {
        try {
            var mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }
}

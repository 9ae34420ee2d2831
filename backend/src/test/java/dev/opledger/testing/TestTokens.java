package dev.opledger.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.function.UnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Mints HS256 bearer tokens the way any JWT tool would, for the local and test profiles. */
public final class TestTokens {

    /** The secret of application-test.yaml. */
    public static final String TEST_SECRET = "opledger-test-secret-0123456789abcdef-0123456789";
    /** The default secret of application-local.yaml, documented in README.md. */
    public static final String LOCAL_SECRET = "opledger-local-development-secret-not-for-production";

    private TestTokens() {
    }

    public static String forSubject(String subject) {
        return mint(TEST_SECRET, claims -> claims.subject(subject));
    }

    /**
     * An HS256 token over exactly these payload bytes, as a hand-written (or hostile) client would
     * make it: no JWT library re-encodes the claims on the way.
     */
    public static String signRaw(String secret, byte[] payload) {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String signingInput = base64.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
                + "." + base64.encodeToString(payload);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return signingInput + "." + base64.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@link #signRaw} with the test secret over {@code {"exp": <an hour away>, <members>}}, the
     * members given as raw bytes (so they may hold any byte sequence) or as UTF-8 text.
     */
    public static String withMembers(byte[] members) {
        var payload = new ByteArrayOutputStream();
        payload.writeBytes(("{\"exp\":" + Instant.now().plus(Duration.ofHours(1)).getEpochSecond() + ",")
                .getBytes(StandardCharsets.UTF_8));
        payload.writeBytes(members);
        payload.write('}');
        return signRaw(TEST_SECRET, payload.toByteArray());
    }

    public static String withMembers(String members) {
        return withMembers(members.getBytes(StandardCharsets.UTF_8));
    }

    public static String mint(String secret, UnaryOperator<JWTClaimsSet.Builder> claims) {
        var now = Instant.now();
        var builder = new JWTClaimsSet.Builder()
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1))));
        var jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.apply(builder).build());
        try {
            jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }
}

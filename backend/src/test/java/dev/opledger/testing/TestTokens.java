package dev.opledger.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.function.UnaryOperator;

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

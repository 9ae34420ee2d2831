package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/** The subject is exactly the token's sub, or the token is refused; tokens signed correctly throughout. */
class StrictClaimsDecoderTest {

    private static final JwtDecoder NIMBUS = NimbusJwtDecoder
            .withSecretKey(new SecretKeySpec(TestTokens.TEST_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"))
            .macAlgorithm(MacAlgorithm.HS256)
            .build();
    private static final JwtDecoder STRICT = new StrictClaimsDecoder(NIMBUS, true);

    // Issue 8: the JWT library keeps an escaped lone surrogate, and the database stores it as '?'.
    @ParameterizedTest
    @ValueSource(strings = {"\"sub\":\"\\ud800q\"", "\"sub\":\"q\\udc00\"", "\"sub\":42", "\"sub\":true", "\"sub\":[\"a\"]",
        "\"sub\":{\"id\":\"a\"}", "\"sub\":null", "\"sub\":\"a\",\"sub\":\"b\"", "\"sub\":\"a\\u0000\"", "\"sub\":\"\"",
        "\"sub\":\"tab\\tbed\"", "\"iss\":\"x\""})
    void refusesASubThatIsNotExactlyAUsableString(String members) {
        String token = TestTokens.withMembers(members);

        assertThatThrownBy(() -> STRICT.decode(token)).as(members).isInstanceOf(BadJwtException.class);
    }

    // The library decodes these bytes to U+FFFD, which would make every such token one subject.
    @ParameterizedTest
    @ValueSource(strings = {"ff", "c0af", "eda080", "80", "e282"})
    void refusesASubThatIsNotUtf8(String hex) {
        byte[] bad = HexFormat.of().parseHex(hex);
        var members = new java.io.ByteArrayOutputStream();
        members.writeBytes("\"sub\":\"q".getBytes(StandardCharsets.UTF_8));
        members.writeBytes(bad);
        members.writeBytes("\"".getBytes(StandardCharsets.UTF_8));
        String token = TestTokens.withMembers(members.toByteArray());

        assertThat(NIMBUS.decode(token).getSubject()).as("what the library alone would accept").contains("\ufffd");
        assertThatThrownBy(() -> STRICT.decode(token)).isInstanceOf(BadJwtException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"alice", "auth0|5f7c8ec7c33c6c004bbafe82", "user-\ud83d\ude00", "\ufffdq", "?q", "caf\u00e9"})
    void keepsASubExactly(String subject) {
        String raw = TestTokens.withMembers("\"sub\":\"" + subject + "\"");
        String escaped = TestTokens.withMembers("\"sub\":\"" + escapeAll(subject) + "\"");

        assertThat(STRICT.decode(raw).getSubject()).isEqualTo(subject);
        assertThat(STRICT.decode(escaped).getSubject()).isEqualTo(subject);
    }

    @Test
    void refusesATokenWithoutExpUnlessTheProfileAllowsIt() {
        String token = TestTokens.signRaw(TestTokens.TEST_SECRET, "{\"sub\":\"alice\"}".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> STRICT.decode(token)).isInstanceOf(BadJwtException.class).hasMessageContaining("exp");
        assertThat(new StrictClaimsDecoder(NIMBUS, false).decode(token).getSubject()).isEqualTo("alice");
    }

    @Test
    void leavesTheSignatureToTheIssuersDecoder() {
        String forged = TestTokens.mint("another-secret-another-secret-another-secret", c -> c.subject("mallory"));

        assertThatThrownBy(() -> STRICT.decode(forged)).isInstanceOf(BadJwtException.class);
    }

    private static String escapeAll(String text) {
        var out = new StringBuilder();
        text.chars().forEach(unit -> out.append(String.format("\\u%04x", unit)));
        return out.toString();
    }
}

package dev.opledger.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.cli.token.LocalTokens;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/** The tokens {@code token} prints pass the decoder a local node builds (LocalTokenConfiguration). */
class TokenCommandTest {

    @TempDir
    Path home;

    static Jwt decode(String secret, String token) {
        return NimbusJwtDecoder.withSecretKey(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"))
                .macAlgorithm(MacAlgorithm.HS256)
                .build()
                .decode(token);
    }

    @Test
    void printsAnHs256TokenForTheSubjectSignedWithTheLocalDefaultSecret() {
        var run = CliRun.run(CliRun.context(home), "token", "--subject", "alice");

        Jwt jwt = decode(LocalTokens.DEFAULT_SECRET, run.out().strip());
        assertThat(run.exitCode()).isZero();
        assertThat(jwt.getSubject()).isEqualTo("alice");
        assertThat(jwt.getClaims()).containsOnlyKeys("sub", "iat", "exp");
        assertThat(Duration.between(jwt.getIssuedAt(), jwt.getExpiresAt())).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void theEnvironmentVariableOverridesTheSecretAndTheOptionOverridesBoth() {
        String environmentSecret = "a secret from the environment, 32 bytes or more";
        var context = new CliContext(Map.of(LocalTokens.SECRET_VARIABLE, environmentSecret), home, Clock.systemUTC());

        String fromEnvironment = CliRun.run(context, "token", "--subject", "bob", "--lifetime", "60").out().strip();
        String fromOption = CliRun.run(context, "token", "--subject", "bob", "--secret",
                "a secret given as an option, also long enough").out().strip();

        assertThat(decode(environmentSecret, fromEnvironment).getExpiresAt())
                .isEqualTo(decode(environmentSecret, fromEnvironment).getIssuedAt().plusSeconds(60));
        assertThatThrownBy(() -> decode(LocalTokens.DEFAULT_SECRET, fromEnvironment)).isInstanceOf(JwtException.class);
        assertThat(decode("a secret given as an option, also long enough", fromOption).getSubject()).isEqualTo("bob");
    }

    @Test
    void refusesASecretTooShortForHs256() {
        var run = CliRun.run(CliRun.context(home), "token", "--subject", "alice", "--secret", "short");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("at least 32 bytes");
    }

    @Test
    void everyCommandHasHelpThatNeverShowsTheSecret() {
        var context = new CliContext(Map.of(LocalTokens.SECRET_VARIABLE, "a secret from the environment, 32 bytes or more"),
                home, Clock.systemUTC());

        var help = CliRun.run(context, "token", "--help");
        var nested = CliRun.run(context, "device", "create", "--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("--subject", LocalTokens.SECRET_VARIABLE).doesNotContain("a secret from");
        assertThat(nested.exitCode()).isZero();
        assertThat(nested.out()).contains("Usage: opledger-cli device create");
    }
}

package dev.opledger.attest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.OpledgerApplication;
import dev.opledger.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** Outside the local and test profiles, insecure App Attest settings stop the node unless allowed. */
@ExtendWith(OutputCaptureExtension.class)
class AttestStartupGuardIT {

    private static String[] production(String... settings) {
        var database = TestDatabase.shared();
        List<String> arguments = new ArrayList<>(List.of("--spring.profiles.active=production", "--server.port=0",
                "--spring.datasource.url=" + database.url(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(),
                "--spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:9/jwks",
                "--opledger.attest.apps=ABCDE12345.com.example.app", "--logging.structured.format.console="));
        arguments.addAll(List.of(settings));
        return arguments.toArray(String[]::new);
    }

    @Test
    void refusesModeOffWithASentenceNotAStackTrace(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(OpledgerApplication.class)
                .run(production("--opledger.attest.mode=off")))
                .rootCause().hasMessageContaining("opledger.attest.mode=off")
                .hasMessageContaining("opledger.attest.allow-insecure=true");
        assertThat(output.getAll()).contains("APPLICATION FAILED TO START")
                .contains("This node would run with opledger.attest.mode=off outside the local and test profiles")
                .doesNotContain("\tat dev.opledger");
    }

    @Test
    void refusesExtraTrustRoots() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(OpledgerApplication.class)
                .run(production("--opledger.attest.trust-roots=classpath:attest/Apple_Root_CA_G3.pem")))
                .rootCause().hasMessageContaining("extra App Attest trust roots");
    }

    @Test
    void startsWhenAllowedAndSaysItIsInsecure(CapturedOutput output) {
        try (var context = new SpringApplicationBuilder(OpledgerApplication.class)
                .run(production("--opledger.attest.mode=off", "--opledger.attest.allow-insecure=true"))) {
            assertThat(context.isRunning()).isTrue();
            assertThat(output.getAll()).contains("INSECURE: App Attest runs with opledger.attest.mode=off");
        }
    }
}

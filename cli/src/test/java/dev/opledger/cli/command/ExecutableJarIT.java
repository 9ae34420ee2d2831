package dev.opledger.cli.command;

import static dev.opledger.cli.command.SampleArguments.base64;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.attest.AppleSample;
import dev.opledger.attest.RealDeviceSample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shaded {@code opledger-cli.jar} itself, run as a user runs it: the unit tests see the test
 * classpath, so only this catches a library the jar leaves out.
 */
class ExecutableJarIT {

    private record Run(int exitCode, String out) {
    }

    private static Run run(String... arguments) throws IOException, InterruptedException {
        Path jar = Path.of("target", "opledger-cli.jar");
        assertThat(jar).exists();
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
                jar.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), out);
    }

    @Test
    void verifiesARealAttestationAndAssertion() throws Exception {
        RealDeviceSample sample = RealDeviceSample.all().getFirst();
        Path publicKey = Files.writeString(Files.createTempFile("key", ".pem"), sample.publicKeyPem());

        var attestation = run("verify", "attestation", "--attestation", base64(sample.attestation()), "--key-id", base64(sample.keyId()),
                "--client-data", base64(sample.attestationClientData()), "--app", sample.app().value(), "--environment", "development",
                "--at", sample.attestedAt().toString());
        var assertion = run("verify", "assertion", "--assertion", base64(sample.assertion()), "--public-key", publicKey.toString(),
                "--counter", "0", "--client-data", base64(sample.assertionClientData()), "--app", sample.app().value());

        assertThat(attestation.exitCode()).as(attestation.out()).isZero();
        assertThat(attestation.out()).startsWith("VALID");
        assertThat(assertion.exitCode()).as(assertion.out()).isZero();
        assertThat(assertion.out()).startsWith("VALID");
    }

    @Test
    void verifiesApplesOwnSampleWithItsChallengeAsClientDataHash() throws Exception {
        var sample = AppleSample.load();

        var attestation = run(SampleArguments.verifyAttestation(sample, sample.at().toString()));

        assertThat(attestation.exitCode()).as(attestation.out()).isZero();
        assertThat(attestation.out()).startsWith("VALID");
    }

    @Test
    void mintsAToken() throws Exception {
        var token = run("token", "--subject", "alice");

        assertThat(token.exitCode()).isZero();
        assertThat(token.out().strip().split("\\.")).hasSize(3);
    }
}

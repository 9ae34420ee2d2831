package dev.opledger.cli.command;

import static dev.opledger.cli.command.SampleArguments.base64;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AppleSample;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.ClientData;
import dev.opledger.attest.RealDeviceSample;
import dev.opledger.cli.device.DevAuthority;
import dev.opledger.cli.device.Pem;
import dev.opledger.cli.device.SimulatedDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code verify} runs the node's verifier: real iPhone data is VALID, a changed byte is INVALID. */
class VerifyCommandTest {

    @TempDir
    Path home;

    static List<RealDeviceSample> samples() {
        return RealDeviceSample.all();
    }

    private CliRun verifyAttestation(RealDeviceSample sample, String attestation, String at) {
        return CliRun.run(CliRun.context(home), "verify", "attestation", "--attestation", attestation,
                "--key-id", base64(sample.keyId()), "--client-data", base64(sample.attestationClientData()), "--app", sample.app().value(),
                "--environment", "development", "--at", at);
    }

    private CliRun verifyAssertion(RealDeviceSample sample, String assertion, String publicKey, long counter) {
        return CliRun.run(CliRun.context(home), "verify", "assertion", "--assertion", assertion,
                "--public-key", publicKey, "--counter", Long.toString(counter),
                "--client-data", base64(sample.assertionClientData()), "--app", sample.app().value());
    }

    @ParameterizedTest
    @MethodSource("samples")
    void aRealAttestationIsValidAtItsTimestamp(RealDeviceSample sample) {
        var run = verifyAttestation(sample, base64(sample.attestation()), sample.attestedAt().toString());

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).startsWith("VALID\n").contains("keyId: " + base64(sample.keyId()), "environment: development",
                "extensionData: none");
    }

    @ParameterizedTest
    @MethodSource("samples")
    void aRealAttestationWithOneByteChangedIsInvalid(RealDeviceSample sample) {
        byte[] changed = sample.attestation().clone();
        changed[changed.length - 40] ^= 0x01;

        var run = verifyAttestation(sample, Base64.getEncoder().encodeToString(changed), sample.attestedAt().toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).startsWith("INVALID: ");
    }

    @ParameterizedTest
    @MethodSource("samples")
    void aRealAttestationIsInvalidOnceItsLeafHasExpired(RealDeviceSample sample) {
        String late = sample.attestedAt().plusSeconds(30L * 24 * 3600).toString();

        var run = verifyAttestation(sample, base64(sample.attestation()), late);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).startsWith("INVALID: CERTIFICATE_CHAIN: ");
    }

    @ParameterizedTest
    @MethodSource("samples")
    void aRealAssertionIsValidWithThePublicKeyAsPemFileOrAsPoint(RealDeviceSample sample) throws IOException {
        Path pem = Files.writeString(home.resolve("key.pem"), sample.publicKeyPem());
        var fromFile = verifyAssertion(sample, base64(sample.assertion()), pem.toString(), 0);
        var fromPoint = verifyAssertion(sample, base64(sample.assertion()), base64(sample.publicKey()), 0);

        assertThat(fromFile.exitCode()).as(fromFile.out() + fromFile.err()).isZero();
        assertThat(fromFile.out()).isEqualTo("VALID\ncounter: " + sample.assertionCounter() + "\n");
        assertThat(fromPoint.out()).isEqualTo(fromFile.out());
    }

    @ParameterizedTest
    @MethodSource("samples")
    void aRealAssertionWithOneByteChangedOrAReplayedCounterIsInvalid(RealDeviceSample sample) {
        byte[] changed = sample.assertion().clone();
        changed[20] ^= 0x01;

        var tampered = verifyAssertion(sample, Base64.getEncoder().encodeToString(changed), base64(sample.publicKey()), 0);
        var replayed = verifyAssertion(sample, base64(sample.assertion()), base64(sample.publicKey()), sample.assertionCounter());

        assertThat(tampered.exitCode()).isEqualTo(1);
        assertThat(tampered.out()).startsWith("INVALID: ");
        assertThat(replayed.exitCode()).isEqualTo(1);
        assertThat(replayed.out()).startsWith("INVALID: COUNTER: ");
    }

    /** Regression: the CLI refused a clientDataHash of other than 32 bytes, which the node's verifier takes. */
    @Test
    void applesOwnSampleIsValidWithItsTwentyOneByteChallengeAsClientDataHash() {
        var sample = AppleSample.load();

        var run = CliRun.run(CliRun.context(home), SampleArguments.verifyAttestation(sample, sample.at().toString()));
        var expired = CliRun.run(CliRun.context(home), SampleArguments.verifyAttestation(sample, "2024-04-21T12:00:00Z"));

        assertThat(sample.clientDataHash()).hasSize(21);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).startsWith("VALID\n").contains("keyId: " + base64(sample.keyId()),
                "app: 0352187391.com.apple.example_app_attest", "environment: production");
        assertThat(expired.exitCode()).isEqualTo(1);
        assertThat(expired.out()).startsWith("INVALID: CERTIFICATE_CHAIN: ");
    }

    @Test
    void aSimulatedDeviceIsValidOnlyWithTheDevelopmentRootTrusted() throws IOException {
        var app = new AppId("OPLEDGERDV.dev.opledger.simulator");
        var device = SimulatedDevice.create(app, AttestEnvironment.DEVELOPMENT);
        byte[] challenge = new byte[32];
        String attestation = Base64.getEncoder().encodeToString(device.attestation(ClientData.hashOfRegistration(challenge)));
        Path root = Files.writeString(home.resolve("root.pem"),
                Pem.certificate(DevAuthority.get().root()));
        String[] args = {"verify", "attestation", "--attestation", attestation,
            "--key-id", Base64.getEncoder().encodeToString(device.keyId()),
            "--client-data-hash", Base64.getEncoder().encodeToString(ClientData.hashOfRegistration(challenge)),
            "--app", app.value(), "--environment", "DEVELOPMENT", "--at", Instant.now().toString()};

        var appleOnly = CliRun.run(CliRun.context(home), args);
        var fromFile = CliRun.run(CliRun.context(home), concat(args, "--trust-root", root.toString()));
        var fromClasspath = CliRun.run(CliRun.context(home), concat(args, "--trust-root", DevAuthority.ROOT_LOCATION));

        assertThat(appleOnly.out()).startsWith("INVALID: CERTIFICATE_CHAIN: ");
        assertThat(fromFile.out()).as(fromFile.err()).startsWith("VALID\n");
        assertThat(fromClasspath.out()).startsWith("VALID\n");
    }

    @Test
    void usageErrorsExitWithTwo() {
        RealDeviceSample sample = RealDeviceSample.all().getFirst();
        String[] base = {"verify", "attestation", "--attestation", base64(sample.attestation()), "--key-id", base64(sample.keyId()),
            "--app", sample.app().value(), "--environment", "development", "--at", sample.attestedAt().toString()};

        assertThat(CliRun.run(CliRun.context(home), base).exitCode()).as("no client data").isEqualTo(2);
        assertThat(CliRun.run(CliRun.context(home), concat(base, "--client-data", "AA", "--client-data-hash", "AA"))
                .exitCode()).as("both kinds of client data").isEqualTo(2);
        assertThat(CliRun.run(CliRun.context(home), concat(base, "--client-data", "not base64!")).exitCode())
                .as("not base64").isEqualTo(2);
        assertThat(CliRun.run(CliRun.context(home), concat(base, "--client-data-hash", "")).exitCode())
                .as("an empty clientDataHash").isEqualTo(2);
        assertThat(CliRun.run(CliRun.context(home), concat(base, "--client-data", "AA", "--trust-root", "/nowhere.pem"))
                .exitCode()).as("a missing trust root").isEqualTo(2);
        var badApp = CliRun.run(CliRun.context(home), "verify", "assertion", "--assertion", base64(sample.assertion()),
                "--public-key", base64(sample.publicKey()), "--counter", "0", "--client-data", "AA", "--app", "not-an-app");
        assertThat(badApp.exitCode()).as("an app id without a team").isEqualTo(2);
        assertThat(badApp.err()).contains("error: an app id is");
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}

package dev.opledger.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.cli.device.DevAuthority;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code device attest}: the development authority's attestation of a key the CLI does not hold. */
class DeviceAttestCommandTest {

    @TempDir
    Path home;

    @Test
    void attestsAKeyHeldElsewhereAsTheNodesVerifierAccepts() throws Exception {
        var generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        var key = (ECPublicKey) generator.generateKeyPair().getPublic();
        byte[] point = point(key);
        byte[] clientDataHash = MessageDigest.getInstance("SHA-256").digest("a registration challenge".getBytes());

        var attest = CliRun.run(CliRun.context(home), "device", "attest", "--public-key", b64(point),
                "--client-data-hash", b64(clientDataHash));
        assertThat(attest.exitCode()).as(attest.err()).isZero();
        var verify = CliRun.run(CliRun.context(home), "verify", "attestation", "--attestation", attest.out().strip(),
                "--key-id", b64(MessageDigest.getInstance("SHA-256").digest(point)), "--client-data-hash",
                b64(clientDataHash), "--app", "OPLEDGERDV.dev.opledger.simulator", "--environment", "development",
                "--at", Instant.now().toString(), "--trust-root", DevAuthority.ROOT_LOCATION);

        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).startsWith("VALID\n");
    }

    @Test
    void refusesWhatIsNotAP256KeyAndAClientDataHashThatIsNotSha256() throws Exception {
        var generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        byte[] point = point((ECPublicKey) generator.generateKeyPair().getPublic());
        byte[] truncated = java.util.Arrays.copyOf(point, 64);

        var badKey = CliRun.run(CliRun.context(home), "device", "attest", "--public-key", b64(truncated),
                "--client-data-hash", b64(new byte[32]));
        var badHash = CliRun.run(CliRun.context(home), "device", "attest", "--public-key", b64(point),
                "--client-data-hash", b64(new byte[31]));

        assertThat(badKey.exitCode()).isEqualTo(2);
        assertThat(badKey.err()).contains("--public-key is not a P-256 public key");
        assertThat(badHash.exitCode()).isEqualTo(2);
        assertThat(badHash.err()).contains("--client-data-hash is SHA-256: 32 bytes, not 31");
        assertThat(badKey.out() + badHash.out()).isEmpty();
    }

    private static byte[] point(ECPublicKey key) {
        byte[] point = new byte[65];
        point[0] = 4;
        copy(key.getW().getAffineX().toByteArray(), point, 1);
        copy(key.getW().getAffineY().toByteArray(), point, 33);
        return point;
    }

    private static void copy(byte[] unsigned, byte[] into, int at) {
        int length = Math.min(unsigned.length, 32);
        System.arraycopy(unsigned, unsigned.length - length, into, at + 32 - length, length);
    }

    private static String b64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}

package dev.opledger.cli.command;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.cli.device.SimulatedDevice;
import java.util.Base64;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "attest", description = {
    "Prints (base64) the attestation object an iPhone would return for a P-256 key held elsewhere,",
    "certified by the CLI's development authority, for --client-data-hash (SHA-256 of the node's",
    "registration challenge). For a client with its own software key, such as the Swift package's",
    "end-to-end test on Linux (ios-companion/e2e-linux.sh); its assertions are its own to sign."})
class DeviceAttestCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--public-key", required = true, paramLabel = "KEY",
            description = "the key: base64 of its 65-byte uncompressed point or of SubjectPublicKeyInfo DER, or a PEM file")
    String publicKey = "";

    @Option(names = "--client-data-hash", required = true, paramLabel = "B64", description = "32 bytes")
    String clientDataHash = "";

    @Option(names = "--app", defaultValue = "OPLEDGERDV.dev.opledger.simulator", paramLabel = "TEAM.BUNDLE",
            description = "the App ID (default: ${DEFAULT-VALUE}, the local profile's)")
    String app = "";

    @Option(names = "--environment", defaultValue = "DEVELOPMENT", paramLabel = "ENV",
            description = "development (default) or production")
    AttestEnvironment environment = AttestEnvironment.DEVELOPMENT;

    @Override
    public Integer call() {
        byte[] point = Inputs.publicKey("--public-key", publicKey);
        byte[] hash = Inputs.base64("--client-data-hash", clientDataHash);
        if (hash.length != 32) {
            throw new UsageException("--client-data-hash is SHA-256: 32 bytes, not " + hash.length);
        }
        byte[] attestation = SimulatedDevice.attestationOf(point, new AppId(app), environment, hash);
        spec.commandLine().getOut().println(Base64.getEncoder().encodeToString(attestation));
        return 0;
    }
}

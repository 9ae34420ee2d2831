package dev.opledger.cli.command;

import dev.opledger.attest.AppAttestVerifier;
import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.AttestationRejectedException;
import dev.opledger.attest.TrustRoots;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "attestation", description = {
    "Verifies a key's attestation object as a node does at registration.",
    "Apple's App Attestation root is always trusted; --trust-root adds others, e.g.",
    "classpath:attest/dev/opledger-dev-root.pem for the CLI's simulated devices."})
class VerifyAttestationCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--attestation", required = true, paramLabel = "B64", description = "the attestation object")
    String attestation = "";

    @Option(names = "--key-id", required = true, paramLabel = "B64", description = "the keyId the app sent")
    String keyId = "";

    @ArgGroup(exclusive = true, multiplicity = "1")
    ClientDataOptions clientData = new ClientDataOptions();

    @Option(names = "--app", required = true, paramLabel = "TEAM.BUNDLE", description = "the expected App ID")
    String app = "";

    @Option(names = "--environment", required = true, paramLabel = "ENV", description = "development or production")
    AttestEnvironment environment = AttestEnvironment.PRODUCTION;

    @Option(names = "--at", required = true, paramLabel = "ISO-INSTANT",
            description = "the instant to validate the certificates at, e.g. 2021-01-22T12:15:00Z")
    Instant at = Instant.EPOCH;

    @Option(names = "--trust-root", paramLabel = "PEM-PATH", description = "an extra trusted root (repeatable)")
    List<String> trustRoots = new ArrayList<>();

    @Override
    public Integer call() {
        AppAttestVerifier verifier = verifier();
        var out = spec.commandLine().getOut();
        try {
            var verified = verifier.verifyAttestation(Inputs.base64("--attestation", attestation),
                    Inputs.base64("--key-id", keyId), clientData.hash(), Set.of(new AppId(app)), environment, at);
            out.println("VALID");
            out.println("keyId: " + Base64.getEncoder().encodeToString(verified.keyId()));
            out.println("publicKey: " + Base64.getEncoder().encodeToString(verified.publicKey()));
            out.println("app: " + verified.app());
            out.println("environment: " + verified.environment().name().toLowerCase(Locale.ROOT));
            out.println("extensionData: " + (verified.extensionData().length == 0 ? "none"
                    : HexFormat.of().formatHex(verified.extensionData())));
            return 0;
        } catch (AttestationRejectedException e) {
            out.println("INVALID: " + e.check() + ": " + e.getMessage());
            return 1;
        } finally {
            out.flush();
        }
    }

    private AppAttestVerifier verifier() {
        try {
            return TrustRoots.verifier(trustRoots);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            throw new UsageException("--trust-root: " + e.getMessage());
        }
    }
}

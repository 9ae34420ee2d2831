package dev.opledger.cli.command;

import dev.opledger.attest.AppAttestVerifier;
import dev.opledger.attest.AppId;
import dev.opledger.attest.AssertionRejectedException;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "assertion", description = "Verifies an assertion against a stored key and counter, as a node does on every attempt.")
class VerifyAssertionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--assertion", required = true, paramLabel = "B64", description = "the assertion (CBOR)")
    String assertion = "";

    @Option(names = "--public-key", required = true, paramLabel = "KEY",
            description = "the key's PEM file, or base64 of its 65-byte uncompressed point")
    String publicKey = "";

    @Option(names = "--counter", required = true, paramLabel = "N", description = "the counter stored for the key")
    long counter;

    @ArgGroup(exclusive = true, multiplicity = "1")
    ClientDataOptions clientData = new ClientDataOptions();

    @Option(names = "--app", required = true, paramLabel = "TEAM.BUNDLE", description = "the key's App ID")
    String app = "";

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        try {
            var verified = AppAttestVerifier.verifyAssertion(Inputs.base64("--assertion", assertion), clientData.hash(),
                    Inputs.publicKey("--public-key", publicKey), new AppId(app), counter);
            out.println("VALID");
            out.println("counter: " + verified.counter());
            return 0;
        } catch (AssertionRejectedException e) {
            out.println("INVALID: " + e.check() + ": " + e.getMessage());
            return 1;
        } finally {
            out.flush();
        }
    }
}

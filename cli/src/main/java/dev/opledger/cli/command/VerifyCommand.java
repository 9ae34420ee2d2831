package dev.opledger.cli.command;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "verify", description = {
    "Verifies App Attest data offline with the node's own verifier.",
    "Prints VALID (exit 0) or INVALID: <check>: <reason> (exit 1)."},
        subcommands = {VerifyAttestationCommand.class, VerifyAssertionCommand.class})
class VerifyCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing command");
    }
}

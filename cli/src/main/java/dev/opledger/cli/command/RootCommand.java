package dev.opledger.cli.command;

import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "opledger-cli", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = ManifestVersion.class,
        description = {
            "A simulated iPhone App Attest device for an opledger node, and an offline App Attest verifier.",
            "Exit codes: 0 done, 1 refused or failed, 2 usage error."},
        subcommands = {TokenCommand.class, DeviceCommand.class, SubmitCommand.class, RetryCommand.class,
            ShowCommand.class, VerifyCommand.class, LoadCommand.class})
class RootCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing command");
    }
}

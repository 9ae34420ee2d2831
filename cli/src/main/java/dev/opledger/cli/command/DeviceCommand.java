package dev.opledger.cli.command;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "device", description = "Simulated App Attest devices.", subcommands = {DeviceCreateCommand.class, DeviceAttestCommand.class})
class DeviceCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing command");
    }
}

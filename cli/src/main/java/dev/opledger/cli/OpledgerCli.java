package dev.opledger.cli;

import dev.opledger.cli.command.CliContext;
import dev.opledger.cli.command.Commands;

/** {@code java -jar opledger-cli.jar}: runs one command and exits with its code (0 done, 1 refused or failed, 2 usage). */
public final class OpledgerCli {

    private OpledgerCli() {
    }

    public static void main(String[] args) {
        System.exit(Commands.commandLine(CliContext.system()).execute(args));
    }
}

package dev.opledger.cli.command;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** One in-process run of the command line, with what it printed. */
record CliRun(int exitCode, String out, String err) {

    static CliRun run(CliContext context, String... args) {
        var out = new StringWriter();
        var err = new StringWriter();
        var commandLine = Commands.commandLine(context);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new CliRun(exitCode, out.toString(), err.toString());
    }

    /** A context with no environment variables, a home of {@code home} and the system clock. */
    static CliContext context(Path home) {
        return new CliContext(Map.of(), home, Clock.systemUTC());
    }
}

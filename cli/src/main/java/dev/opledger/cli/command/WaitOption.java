package dev.opledger.cli.command;

import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --wait}: ask the node to answer once the operation settled (RFC 7240 {@code Prefer: wait}) instead of at once. */
class WaitOption {

    @Option(names = "--wait", defaultValue = "0", paramLabel = "SECONDS",
            description = {"wait up to SECONDS for the operation to end or need a person (Prefer: wait; the node",
                    "bounds it, 30 s by default) instead of answering at once (default: ${DEFAULT-VALUE}, no wait)"})
    long seconds;

    Duration duration() {
        if (seconds < 0) {
            throw new UsageException("--wait must not be negative");
        }
        return Duration.ofSeconds(seconds);
    }
}

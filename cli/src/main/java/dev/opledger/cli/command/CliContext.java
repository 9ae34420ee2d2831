package dev.opledger.cli.command;

import dev.opledger.cli.token.LocalTokens;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * What commands take from their surroundings: environment variables, the home directory and the
 * clock. Tests pass their own.
 */
public record CliContext(Map<String, String> environment, Path home, Clock clock) {

    /** Overrides where devices are kept, {@code ~/.opledger/devices} by default. */
    public static final String DEVICES_VARIABLE = "OPLEDGER_DEVICES_DIR";

    public CliContext {
        environment = Map.copyOf(environment);
    }

    public static CliContext system() {
        return new CliContext(System.getenv(), Path.of(System.getProperty("user.home")), Clock.systemUTC());
    }

    public Path devicesDirectory() {
        String configured = environment.get(DEVICES_VARIABLE);
        return configured == null || configured.isEmpty() ? home.resolve(".opledger").resolve("devices")
                : Path.of(configured);
    }

    public String jwtSecret() {
        return LocalTokens.secret(environment);
    }
}

package dev.opledger.cli.command;

import dev.opledger.cli.token.LocalTokens;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "token", description = {
    "Prints an HS256 bearer token for a node in the local profile (claims sub, iat, exp).",
    "The secret is --secret, else $" + LocalTokens.SECRET_VARIABLE + ", else the local profile's default."})
class TokenCommand implements Callable<Integer> {

    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Option(names = "--subject", required = true, paramLabel = "S", description = "the user, claim sub")
    String subject = "";

    @Option(names = "--secret", paramLabel = "X", description = "the HS256 secret, at least 32 bytes")
    @Nullable String secret;

    @Option(names = "--lifetime", defaultValue = "3600", paramLabel = "SECONDS",
            description = "seconds until it expires (default: ${DEFAULT-VALUE})")
    long lifetime;

    TokenCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        String key = secret != null ? secret : context.jwtSecret();
        spec.commandLine().getOut().println(LocalTokens.mint(subject, key, context.clock().instant(),
                Duration.ofSeconds(lifetime)));
        return 0;
    }
}

package dev.opledger.cli.command;

import dev.opledger.attest.AppId;
import dev.opledger.cli.http.NodeClient;
import dev.opledger.cli.load.ClaimLoad;
import dev.opledger.cli.load.LoadResult;
import dev.opledger.cli.token.LocalTokens;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "load", description = {
    "Drives a local node with new operations from --clients simulated users for --duration seconds after",
    "--warmup seconds, and prints one RESULT line (bench/attest/run.sh reads it). --attested fetches a",
    "challenge and signs an assertion for every attempt, as the app does; without it the claims carry",
    "no App Attest headers (a node in mode off or optional)."})
class LoadCommand implements Callable<Integer> {

    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Option(names = "--server", defaultValue = "http://localhost:8080", description = "the node (default: ${DEFAULT-VALUE})")
    URI server;

    @Option(names = "--clients", defaultValue = "16", description = "concurrent users (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--warmup", defaultValue = "20", description = "seconds not counted (default: ${DEFAULT-VALUE})")
    long warmUp;

    @Option(names = "--duration", defaultValue = "20", description = "seconds measured (default: ${DEFAULT-VALUE})")
    long duration;

    @Option(names = "--attested", description = "send a fresh challenge and assertion with every attempt")
    boolean attested;

    @Option(names = "--app", defaultValue = "OPLEDGERDV.dev.opledger.simulator",
            description = "the app the devices claim to be (default: ${DEFAULT-VALUE})")
    String app;

    LoadCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || warmUp < 0 || duration < 1) {
            throw new UsageException("--clients and --duration must be positive, --warmup not negative");
        }
        try (var node = new NodeClient(server)) {
            var load = new ClaimLoad(node, clients, attested, new AppId(app),
                    subject -> LocalTokens.mint(subject, context.jwtSecret(), context.clock().instant(), Duration.ofHours(2)));
            LoadResult result = load.run(Duration.ofSeconds(warmUp), Duration.ofSeconds(duration));
            spec.commandLine().getOut().println(result.line());
            return result.unexpected() == 0 ? 0 : 1;
        }
    }
}

package dev.opledger.cli.command;

import dev.opledger.attest.AppId;
import dev.opledger.cli.http.NodeClient;
import dev.opledger.cli.load.ArrivalSchedule;
import dev.opledger.cli.load.CheckoutLoad;
import dev.opledger.cli.load.CheckoutResult;
import dev.opledger.cli.load.ClaimLoad;
import dev.opledger.cli.load.LoadResult;
import dev.opledger.cli.load.McpTaskLoad;
import dev.opledger.cli.load.OpenLoopCheckout;
import dev.opledger.cli.load.OpenLoopResult;
import dev.opledger.cli.token.LocalTokens;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "load", description = {
    "Drives a local node from --clients simulated users for --duration seconds after --warmup seconds",
    "(not counted), and prints one RESULT line (the scripts under bench/ read it).",
    "--mode claim (default): new checkouts claimed as fast as the users can. --attested fetches a",
    "challenge and signs an assertion for every attempt, as the app does; without it the claims carry",
    "no App Attest headers (a node in mode off or optional).",
    "--mode checkout: a closed loop; each user submits a checkout with Prefer: wait=--wait, so the",
    "node answers when it has ended (read again, with the same wait, if it has not); with --wait 0 it",
    "reads it until it has ended instead (waiting a fifth of the time it has taken so far between",
    "reads, at least --poll-ms); then submits the next. Operations under way when the time is up are followed to",
    "their end. RESULT: operations, completed (SUCCEEDED within the time), rps, status_reads, p50_ms",
    "and p99_ms (claim sent to SUCCEEDED read), unexpected.",
    "--mode mcp: new checkouts as task-augmented tools/call of the tool checkout on the node's /mcp",
    "(2026-07-28, the tasks extension declared in _meta); claims in RESULT are CreateTaskResults.",
    "--duplicates (claim without --attested, and mcp): each user first creates 20 operations, then",
    "repeats them at random: 200 Idempotent-Replayed (claim) or the same taskId (mcp) is expected.",
    "--rate N (checkout only): an open loop instead: N arrivals a second on a fixed schedule, each a",
    "new checkout followed to its end however many are under way; latency from the scheduled send",
    "time (no coordinated omission); RESULT adds rate, scheduled, send_lag_p99_ms, send_lag_max_ms.",
    "--server takes several nodes (comma-separated, checkout only): user i talks to node i mod n.",
    "--hold: after the warm-up (and its drain) print WARMED and wait for a line on standard input",
    "before measuring, so a script can read counters while nothing is under way."})
class LoadCommand implements Callable<Integer> {

    enum Mode { CLAIM, CHECKOUT, MCP }

    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Option(names = "--server", defaultValue = "http://localhost:8080", split = ",",
            description = "the node, or nodes of one database comma-separated (checkout) (default: ${DEFAULT-VALUE})")
    List<URI> servers;

    @Option(names = "--rate", defaultValue = "0",
            description = "checkout mode: arrivals per second of an open loop; 0: the closed loop (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--mode", defaultValue = "CLAIM", description = "claim (default) or checkout")
    Mode mode;

    @Option(names = "--clients", defaultValue = "16", description = "concurrent users (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--warmup", defaultValue = "20", description = "seconds not counted (default: ${DEFAULT-VALUE})")
    long warmUp;

    @Option(names = "--duration", defaultValue = "20", description = "seconds measured (default: ${DEFAULT-VALUE})")
    long duration;

    @Option(names = "--attested", description = "claim mode: send a fresh challenge and assertion with every attempt")
    boolean attested;

    @Option(names = "--duplicates", description = "claim (not attested) and mcp modes: repeat operations created first")
    boolean duplicates;

    @Option(names = "--poll-ms", defaultValue = "20",
            description = "checkout mode: the shortest wait in milliseconds between two reads of an operation (default: ${DEFAULT-VALUE})")
    long pollMillis;

    @Option(names = "--wait", defaultValue = "25",
            description = "checkout mode: the Prefer: wait of every request in seconds; 0: poll instead (default: ${DEFAULT-VALUE})")
    long waitSeconds;

    @Option(names = "--patience", defaultValue = "60",
            description = "checkout mode: seconds an operation may take before it counts as unexpected (default: ${DEFAULT-VALUE})")
    long patience;

    @Option(names = "--hold", description = "print WARMED after the warm-up and wait for a line on standard input")
    boolean hold;

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
        if (mode == Mode.CHECKOUT && attested) {
            throw new UsageException("--attested is for --mode claim only");
        }
        if (duplicates && (mode == Mode.CHECKOUT || attested)) {
            throw new UsageException("--duplicates is for --mode claim without --attested, and --mode mcp");
        }
        if (mode == Mode.MCP && attested) {
            throw new UsageException("--attested is for --mode claim only");
        }
        if (pollMillis < 1 || patience < 1 || waitSeconds < 0) {
            throw new UsageException("--poll-ms and --patience must be positive, --wait not negative");
        }
        if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate) || (rate > 0 && mode != Mode.CHECKOUT)) {
            throw new UsageException("--rate is a positive number of arrivals per second, for --mode checkout only");
        }
        if (servers.size() > 1 && mode != Mode.CHECKOUT) {
            throw new UsageException("several --server nodes are for --mode checkout only");
        }
        URI server = servers.getFirst();
        PrintWriter out = spec.commandLine().getOut();
        Function<String, String> tokenFor = subject ->
                LocalTokens.mint(subject, context.jwtSecret(), context.clock().instant(), Duration.ofHours(2));
        Runnable afterWarmUp = hold ? () -> awaitGo(out) : () -> { };
        if (mode == Mode.MCP) {
            var load = new McpTaskLoad(server, clients, duplicates, tokenFor);
            LoadResult result = load.run(Duration.ofSeconds(warmUp), afterWarmUp, Duration.ofSeconds(duration));
            out.println(result.line());
            return result.unexpected() == 0 ? 0 : 1;
        }
        if (mode == Mode.CHECKOUT) {
            return checkout(out, tokenFor, afterWarmUp);
        }
        try (var node = new NodeClient(server)) {
            var load = new ClaimLoad(node, clients, attested, duplicates, new AppId(app), tokenFor);
            LoadResult result = load.run(Duration.ofSeconds(warmUp), afterWarmUp, Duration.ofSeconds(duration));
            out.println(result.line());
            return result.unexpected() == 0 ? 0 : 1;
        }
    }

    private int checkout(PrintWriter out, Function<String, String> tokenFor, Runnable afterWarmUp) throws Exception {
        List<NodeClient> nodes = servers.stream().map(NodeClient::new).toList();
        try {
            var load = new CheckoutLoad(nodes, clients, Duration.ofMillis(pollMillis), Duration.ofSeconds(waitSeconds),
                    Duration.ofSeconds(patience), tokenFor);
            if (rate > 0) {
                OpenLoopResult result = new OpenLoopCheckout(load, new ArrivalSchedule(rate))
                        .run(Duration.ofSeconds(warmUp), afterWarmUp, Duration.ofSeconds(duration));
                out.println(result.line());
                return result.unexpected() == 0 ? 0 : 1;
            }
            CheckoutResult result = load.run(Duration.ofSeconds(warmUp), afterWarmUp, Duration.ofSeconds(duration));
            out.println(result.line());
            return result.unexpected() == 0 ? 0 : 1;
        } finally {
            nodes.forEach(NodeClient::close);
        }
    }

    // Not closed: standard input belongs to the process.
    private static void awaitGo(PrintWriter out) {
        out.println("WARMED");
        out.flush();
        try {
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

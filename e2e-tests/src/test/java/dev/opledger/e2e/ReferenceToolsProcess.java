package dev.opledger.e2e;

import static org.awaitility.Awaitility.await;

import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.mcp.internal.McpProperties;
import dev.opledger.mcp.internal.McpProtocol;
import dev.opledger.mcp.internal.McpToolClient;
import dev.opledger.node.database.LocatedDatabase;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The reference tool server as a process of its own (its executable jar,
 * {@code opledger.reference-tools.jar}), so it outlives the nodes a test kills; its effects go to
 * schema {@code reference_tools} of the database it is given, where {@link #effectsOf} counts them.
 */
final class ReferenceToolsProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /** A restart under a checkout load on a shared 2-core machine was seen to take 60 s. */
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(180);

    private Process process;
    private final URI url;
    private final Path log;
    private final LocatedDatabase database;
    private final List<String> command;

    private ReferenceToolsProcess(Process process, URI url, Path log, LocatedDatabase database, List<String> command) {
        this.process = process;
        this.url = url;
        this.log = log;
        this.database = database;
        this.command = command;
    }

    /** Starts it on a free port and waits until it answers a tool call; {@code arguments} are its own settings. */
    static ReferenceToolsProcess start(LocatedDatabase database, String... arguments) throws IOException {
        int port = NodeProcess.freePort();
        Path log = NodeProcess.logFile("reference-tools-" + port);
        List<String> command = new ArrayList<>(List.of(NodeProcess.java(), "-XX:TieredStopAtLevel=1", "-jar",
                jar().toAbsolutePath().toString(),
                "--server.port=" + port,
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        var tools = new ReferenceToolsProcess(process, URI.create("http://127.0.0.1:" + port + "/mcp"), log, database,
                List.copyOf(command));
        try {
            tools.awaitAnswering(READY_TIMEOUT);
        } catch (RuntimeException | Error e) {
            tools.close();
            throw e;
        }
        return tools;
    }

    private static Path jar() {
        Path jar = Path.of(System.getProperty("opledger.reference-tools.jar", "../reference-tools/target/reference-tools.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no reference-tools jar at " + jar.toAbsolutePath()
                    + ": build it first (./mvnw -B -pl reference-tools -am package)");
        }
        return jar;
    }

    private void awaitAnswering(Duration timeout) {
        try (var client = new McpToolClient(new McpProperties(Map.of("reference",
                McpProperties.Server.http(url, McpProtocol.AUTO, Duration.ofSeconds(5), Map.of()))))) {
            await("reference-tools answering at " + url).atMost(timeout).pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("reference-tools exited with status " + process.exitValue()
                                    + "; its output:\n" + Files.readString(log));
                        }
                        try {
                            return !client.call(new ToolRef("reference", "get_product"), Map.of("operationId",
                                    "readiness", "stepKey", "look", "sku", "SKU-ESPRESSO")).error();
                        } catch (ToolTransportException notYet) {
                            return false;
                        }
                    });
        }
    }

    /** Its MCP endpoint (both revisions). */
    URI url() {
        return url;
    }

    /** A node's arguments to call this server as MCP server {@code reference} instead of starting its own. */
    List<String> nodeArguments() {
        return List.of("--opledger.reference-tools.embedded=false",
                "--opledger.mcp.servers.reference.url=" + url);
    }

    /**
     * A worker node calling this server, with leases short enough (3 s) for a quick takeover after
     * its death, and a pool no larger than its runs need (the PostgreSQL server is shared).
     */
    List<String> takeoverWorkerArguments(String... extra) {
        List<String> arguments = new ArrayList<>(List.of(
                "--opledger.attest.mode=optional",
                "--opledger.worker.concurrency=2",
                "--opledger.worker.lease=3s",
                "--opledger.worker.heartbeat=1s",
                "--spring.datasource.hikari.maximum-pool-size=6"));
        arguments.addAll(nodeArguments());
        arguments.addAll(List.of(extra));
        return arguments;
    }

    /**
     * The tasks of a step's calls of a task tool that reached this server, oldest first, each
     * {@code "<status> <polls>"}: one row per tools/call.
     */
    List<String> tasksOf(String operationId, String stepKey) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT status || ' ' || polls FROM reference_tools.task "
                    + "WHERE operation_id = ? AND step_key = ? ORDER BY created_at", operationId, stepKey)
                    .stream().map(String.class::cast).toList();
        }
    }

    /** The real effects made for an operation, one {@code "<stepKey> <tool>"} per row of the effect log. */
    List<String> effectsOf(String operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT step_key || ' ' || tool FROM reference_tools.effect_log "
                    + "WHERE operation_id = ? ORDER BY effect_id", operationId).stream().map(String.class::cast).toList();
        }
    }

    /** Every effect made, by operationId, each as in {@link #effectsOf}, sorted. */
    Map<String, List<String>> effectsByOperation() throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT operation_id || ' ' || step_key || ' ' || tool FROM reference_tools.effect_log")
                    .stream().map(String.class::cast)
                    .collect(Collectors.groupingBy(row -> row.substring(0, row.indexOf(' ')), TreeMap::new,
                            Collectors.mapping(row -> row.substring(row.indexOf(' ') + 1),
                                    Collectors.collectingAndThen(Collectors.toList(), rows -> rows.stream().sorted().toList()))));
        }
    }

    /** Operations with more than one effect for one step, as {@code "<operationId> <stepKey> <n>"}. */
    List<String> repeatedEffects() throws SQLException {
        try (Connection db = E2eDatabase.connect(database)) {
            return E2eQueries.list(db, "SELECT operation_id || ' ' || step_key || ' ' || count(*) "
                    + "FROM reference_tools.effect_log GROUP BY operation_id, step_key HAVING count(*) > 1")
                    .stream().map(String.class::cast).toList();
        }
    }

    /** Stops it (SIGTERM, as an operator's restart): its port refuses connections until {@link #startAgain}. */
    synchronized void stop() {
        NodeProcess.stop(process);
    }

    /** Starts it again on the same port, log (appended) and database, and waits until it answers. */
    synchronized void startAgain() throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        awaitAnswering(RESTART_TIMEOUT);
    }

    @Override
    public synchronized void close() {
        NodeProcess.stop(process);
    }
}

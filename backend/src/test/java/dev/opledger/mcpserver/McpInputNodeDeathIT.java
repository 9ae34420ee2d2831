package dev.opledger.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.LifecycleService;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.internal.OperationWorker;
import dev.opledger.graph.internal.WorkerProperties;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestTokens;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A node dies while its task waits for the client's input, and another node serves the rest:
 * node A, a separate JVM with the conformance fixtures (profile {@code conformance}), runs
 * {@code confirm_delete} until it parks AWAITING_INPUT and is killed with SIGKILL; this test's node
 * (B, same database) answers {@code tasks/get} with the same {@code input_required} and
 * {@code inputRequests}, accepts the {@code tasks/update}, and a worker of B resumes the run to
 * {@code completed}. Nothing of the wait was in A's memory: the requests are rows.
 */
@NodeIntegrationTest
class McpInputNodeDeathIT {

    @LocalServerPort
    int port;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    private Process nodeA;
    private OperationWorker workerB;
    private Path fixtures;

    @AfterEach
    void stop() throws IOException {
        if (nodeA != null) {
            nodeA.destroyForcibly();
        }
        if (workerB != null) {
            workerB.stop();
        }
        if (fixtures != null) {
            try (Stream<Path> files = Files.walk(fixtures)) {
                files.sorted((a, b) -> b.compareTo(a)).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    @Test
    void aTaskAwaitingInputOnAKilledNodeIsAnsweredThroughAnotherNode() throws Exception {
        int portA = freePort();
        Path log = Files.createTempFile("mcp-input-node-a", ".log");
        nodeA = startNodeA(portA, log);
        String subject = "agent-" + UUID.randomUUID();
        var agentOnA = new McpAgent(portA, TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject)));
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> ready(portA, log));

        String taskId = (String) McpAgent.result(agentOnA.request("tools/call", Map.of("name", "confirm_delete",
                "arguments", Map.of("filename", "node-death.txt")), true, "confirm_delete")).get("taskId");
        Map<String, Object> onA = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> McpAgent.result(agentOnA.getTask(taskId)), task -> "input_required".equals(task.get("status")));
        int killed = new ProcessBuilder("kill", "-KILL", Long.toString(nodeA.pid())).start().waitFor();
        nodeA.waitFor();

        var agentOnB = new McpAgent(port, TestTokens.forSubject(subject));
        var onB = McpAgent.result(agentOnB.getTask(taskId));
        @SuppressWarnings("unchecked")
        String key = ((Map<String, Object>) onB.get("inputRequests")).keySet().iterator().next();
        var ack = McpAgent.result(agentOnB.request("tasks/update", Map.of("taskId", taskId, "inputResponses",
                Map.of(key, Map.of("action", "accept", "content", Map.of("confirm", true)))), true, taskId));
        // B's worker resumes the run: a stand-in for confirm_delete's second half (B's profile has no fixtures)
        workerB = new OperationWorker("node-b", lifecycle, (operation, lease) -> new ExecutionOutcome.Succeeded(
                "resumed on B with " + lifecycle.inputs(operation.operationId()).getFirst().response()),
                new WorkerProperties(true, 2, Duration.ofSeconds(2), Duration.ofMillis(400), Duration.ofMillis(50)));
        workerB.start();
        Map<String, Object> done = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> McpAgent.result(agentOnB.getTask(taskId)), task -> "completed".equals(task.get("status")));

        assertThat(killed).isZero();
        assertThat(nodeA.exitValue()).as("A died of SIGKILL").isEqualTo(137);
        assertThat(onB).containsEntry("status", "input_required").containsEntry("inputRequests", onA.get("inputRequests"))
                .containsEntry("createdAt", onA.get("createdAt"));
        assertThat(ack).containsEntry("resultType", "complete");
        assertThat(done.get("result").toString()).contains("resumed on B", "\"confirm\": true");
        assertThat(jdbc.queryForList("SELECT coalesce(t.from_status, '') || '>' || t.to_status || '@' || coalesce(t.node_id, '') "
                + "FROM operation_transition t JOIN operation o ON o.id = t.operation_ref JOIN mcp_task m "
                + "ON m.operation_id = o.operation_id WHERE m.task_id = ? ORDER BY t.id", String.class, taskId))
                .hasSize(6).element(2).asString().startsWith("RUNNING>AWAITING_INPUT@");
    }

    /** A node from backend's classes and only the conformance fixtures of its test classes, as scripts/conformance.sh starts it. */
    private Process startNodeA(int portA, Path log) throws IOException {
        fixtures = Files.createTempDirectory("mcp-input-fixtures");
        List<String> classpath = new ArrayList<>();
        Path testClasses = null;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.endsWith("test-classes") || entry.endsWith("test-classes/")) {
                testClasses = Path.of(entry);
            } else {
                classpath.add(entry);
            }
        }
        Path internal = Path.of("dev", "opledger", "mcpserver", "internal");
        Files.createDirectories(fixtures.resolve(internal));
        try (Stream<Path> classes = Files.list(testClasses.resolve(internal))) {
            for (Path file : classes.filter(f -> f.getFileName().toString().startsWith("ConformanceFixtures")).toList()) {
                Files.copy(file, fixtures.resolve(internal).resolve(file.getFileName()));
            }
        }
        Files.createDirectories(fixtures.resolve("conformance-fixtures"));
        try (Stream<Path> schemas = Files.list(testClasses.resolve("conformance-fixtures"))) {
            for (Path file : schemas.toList()) {
                Files.copy(file, fixtures.resolve("conformance-fixtures").resolve(file.getFileName()));
            }
        }
        classpath.add(fixtures.toString());
        var database = TestDatabase.shared();
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-XX:TieredStopAtLevel=1", "-Xmx384m",
                "-cp", String.join(File.pathSeparator, classpath), "dev.opledger.OpledgerApplication",
                "--spring.profiles.active=local,conformance", "--server.port=" + portA, "--server.address=127.0.0.1",
                "--spring.datasource.url=" + database.url(), "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(), "--spring.datasource.hikari.maximum-pool-size=4",
                "--opledger.attest.mode=off", "--opledger.reference-tools.embedded=false",
                "--opledger.events.enabled=false", "--opledger.worker.concurrency=2", "--logging.level.root=WARN"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private boolean ready(int portA, Path log) {
        if (!nodeA.isAlive()) {
            throw new IllegalStateException("node A exited " + nodeA.exitValue() + ":\n" + tail(log));
        }
        try {
            var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + portA + "/actuator/health/readiness")).build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.subList(Math.max(0, lines.size() - 40), lines.size()).stream().collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

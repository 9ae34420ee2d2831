package dev.opledger.e2e;

import static org.awaitility.Awaitility.await;

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
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts, waits for and stops a node from the executable jar as a child process. */
final class NodeProcess {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    /**
     * Unpacking the 160 MB jar is seconds on a quiet machine, but a loaded one (builds beside the
     * proofs) took longer than the 20 s a node gets to stop, and the whole proof failed before it began.
     */
    private static final Duration EXTRACT_TIMEOUT = Duration.ofMinutes(5);
    private static final int TAIL_LINES = 80;
    private static final String EVENTS_ENABLED = "opledger.events.enabled";

    private static Path extracted;

    private NodeProcess() {
    }

    /** The executable jar the ui module built. */
    static Path jar() {
        Path jar = Path.of(System.getProperty("opledger.node.jar", "../ui/target/opledger.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no node jar at " + jar.toAbsolutePath()
                    + ": build it first (./mvnw -B -pl ui -am package)");
        }
        return jar;
    }

    /**
     * The executable jar unpacked as Spring Boot's {@code extract} tool lays it out (the
     * application jar beside {@code lib/}): the same classes, started about twice as fast, for
     * tests that start many nodes. Extracted once per test JVM (over what an earlier run left).
     */
    static synchronized Path extractedJar() throws IOException, InterruptedException {
        if (extracted != null) {
            return extracted;
        }
        Path jar = jar();
        Path destination = target().resolve("opledger-extracted");
        Path log = logFile("opledger-extract");
        Process extract = new ProcessBuilder(java(), "-Djarmode=tools", "-jar", jar.toAbsolutePath().toString(),
                "extract", "--force", "--destination", destination.toAbsolutePath().toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!extract.waitFor(EXTRACT_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || extract.exitValue() != 0) {
            extract.destroyForcibly();
            throw new IllegalStateException("could not extract " + jar + ":\n" + Files.readString(log));
        }
        extracted = destination.resolve(jar.getFileName());
        return extracted;
    }

    /** A file under this module's {@code target/} for a node's output. */
    static Path logFile(String name) throws IOException {
        return target().resolve(name + ".log");
    }

    private static Path target() throws IOException {
        Path target = Path.of(System.getProperty("basedir", "."), "target");
        Files.createDirectories(target);
        return target;
    }

    /** The test JVM's own java, for child JVMs. */
    static String java() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * Starts {@code java [jvmOptions] -jar jar --spring.profiles.active=local --server.port=port
     * --opledger.events.enabled=false [arguments]} (without that setting when {@code arguments}
     * give {@code opledger.events.enabled}: a second value would make it {@code "false,true"}),
     * with the test JVM's own java, behind
     * {@code prefix} (e.g. {@code runuser});
     * {@code jar} is {@link #jar()} or {@link #extractedJar()}.
     */
    static Process start(Path jar, List<String> prefix, List<String> jvmOptions, int port, Path log,
            String... arguments) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(java());
        command.add("-XX:TieredStopAtLevel=1"); // a short-lived test node: start fast rather than peak
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toAbsolutePath().toString(), "--spring.profiles.active=local",
                "--server.port=" + port,
                // several nodes and test JVMs share one PostgreSQL (100 connections): a test node's
                // pool grows with its load instead of opening all 16 connections at start
                "--spring.datasource.hikari.minimum-idle=2"));
        if (Arrays.stream(arguments).noneMatch(argument -> argument.startsWith("--" + EVENTS_ENABLED + "="))) {
            // no Kafka broker nor relay in each child node unless a test gives it one (EventNodes):
            // most are about the console and crashes; the outbox rows are still written
            command.add("--" + EVENTS_ENABLED + "=false");
        }
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /**
     * {@link #start} on a free port, with output to {@code target/<name>-<port>.log}, and
     * {@link #awaitReadiness}; a node that does not become ready is stopped and its last output
     * is in the exception.
     */
    static ChildNode startReady(String name, Path jar, List<String> prefix, List<String> jvmOptions, Duration timeout,
            String... arguments) throws IOException {
        int port = freePort();
        var node = new RunningNode(URI.create("http://localhost:" + port + "/"), logFile(name + "-" + port));
        Process process = start(jar, prefix, jvmOptions, port, node.log(), arguments);
        try {
            awaitReadiness(process, node, timeout);
        } catch (RuntimeException | Error e) {
            stop(process);
            throw new IllegalStateException("the node did not become ready; its last output:\n"
                    + node.logTail(TAIL_LINES), e);
        }
        return new ChildNode(process, node);
    }

    static void awaitReadiness(Process process, RunningNode node, Duration timeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest readiness = HttpRequest.newBuilder(node.uri("actuator/health/readiness"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        await("node readiness at " + node.base())
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("the node exited with status " + process.exitValue());
                    }
                    try {
                        return http.send(readiness, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    } catch (IOException notAnsweringYet) {
                        return false;
                    }
                });
    }

    /**
     * SIGTERM (Spring shuts down gracefully, an embedded PostgreSQL stops with the JVM), then
     * SIGKILL after a while; descendants too, for a node started behind {@code runuser}.
     */
    static void stop(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
            for (ProcessHandle descendant : descendants) {
                descendant.onExit().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (Exception stillRunning) {
            descendants.forEach(ProcessHandle::destroyForcibly);
        }
    }

    static int freePort() {
        try (var socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.opledger.e2e;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts, waits for and stops a node from the executable jar as a child process. */
final class NodeProcess {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

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

    /** A file under this module's {@code target/} for a node's output. */
    static Path logFile(String name) throws IOException {
        Path target = Path.of(System.getProperty("basedir", "."), "target");
        Files.createDirectories(target);
        return target.resolve(name + ".log");
    }

    /**
     * Starts {@code java [jvmOptions] -jar jar --spring.profiles.active=local --server.port=port
     * [arguments]}, with the test JVM's own java, behind {@code prefix} (e.g. {@code runuser}).
     */
    static Process start(List<String> prefix, List<String> jvmOptions, int port, Path log,
            String... arguments) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(prefix);
        command.add(java);
        command.add("-XX:TieredStopAtLevel=1"); // a short-lived test node: start fast rather than peak
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar().toAbsolutePath().toString(), "--spring.profiles.active=local",
                "--server.port=" + port));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
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

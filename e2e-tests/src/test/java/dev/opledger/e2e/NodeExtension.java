package dev.opledger.e2e;

import static org.awaitility.Awaitility.await;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.TestDatabase;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts the production jar ({@code opledger.node.jar}) once per test class as a child process
 * with the same JDK, profile {@code local}, a free port and the test JVM's own database; waits
 * until it is ready; stops it after the class, whatever happened. Its output goes to
 * {@code target/node-<port>.log}, whose tail is printed when a test fails.
 */
public class NodeExtension implements BeforeAllCallback, AfterAllCallback, AfterTestExecutionCallback,
        ParameterResolver {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final int TAIL_LINES = 80;
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(NodeExtension.class);

    private record Started(Process process, RunningNode node) {
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Path jar = Path.of(System.getProperty("opledger.node.jar", "../ui/target/opledger.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no node jar at " + jar.toAbsolutePath()
                    + ": build it first (./mvnw -B -pl ui -am package)");
        }
        int port = freePort();
        Path target = Path.of(System.getProperty("basedir", "."), "target");
        Files.createDirectories(target);
        var node = new RunningNode(URI.create("http://localhost:" + port + "/"), target.resolve("node-" + port + ".log"));
        Process process = new ProcessBuilder(command(jar, port, TestDatabase.shared()))
                .redirectErrorStream(true)
                .redirectOutput(node.log().toFile())
                .start();
        context.getStore(NAMESPACE).put(Started.class, new Started(process, node));
        try {
            awaitReadiness(process, node);
        } catch (RuntimeException | Error e) {
            stop(process);
            throw new IllegalStateException("the node did not become ready; its last output:\n" + node.logTail(TAIL_LINES),
                    e);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        var started = context.getStore(NAMESPACE).remove(Started.class, Started.class);
        if (started != null) {
            stop(started.process());
        }
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        if (context.getExecutionException().isPresent()) {
            started(context).ifPresent(started -> System.err.println("--- " + context.getDisplayName()
                    + " failed; the node's last output (" + started.node().log() + "):\n"
                    + started.node().logTail(TAIL_LINES)));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RunningNode.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return started(context).orElseThrow(() -> new IllegalStateException("no node was started")).node();
    }

    private static Optional<Started> started(ExtensionContext context) {
        return Optional.ofNullable(context.getStore(NAMESPACE).get(Started.class, Started.class));
    }

    private static List<String> command(Path jar, int port, LocatedDatabase database) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return List.of(java,
                "-XX:TieredStopAtLevel=1", // a short-lived test node: start fast rather than peak
                "-jar", jar.toAbsolutePath().toString(),
                "--spring.profiles.active=local",
                "--server.port=" + port,
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password());
    }

    private static void awaitReadiness(Process process, RunningNode node) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest readiness = HttpRequest.newBuilder(node.uri("actuator/health/readiness"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        await("node readiness at " + node.base())
                .atMost(READY_TIMEOUT)
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

    private static void stop(Process process) {
        process.destroy(); // SIGTERM: Spring shuts down gracefully
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() {
        try (var socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.opledger.tools;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.step;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.TestDatabase;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** target/reference-tools.jar runs as a process of its own. */
class ExecutableJarIT {

    private static final Path JAR = Path.of("target", "reference-tools.jar");

    @Test
    void theExecutableJarServesTheTools() throws Exception {
        assertThat(JAR).exists();
        var database = TestDatabase.shared();
        int port = freePort();
        Path log = Files.createTempFile("reference-tools", ".log");
        Process process = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString(),
                "--server.port=" + port,
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            var client = McpClients.modern(java.net.URI.create("http://127.0.0.1:" + port + "/mcp"));
            awaitStarted(client, process, log);

            String operation = TestServer.newOperationId();
            var result = call(client, "get_product", step(operation, "look", "sku", "SKU-ESPRESSO"));

            assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
            assertThat(McpClients.structured(result)).containsEntry("sku", "SKU-ESPRESSO");
        } finally {
            process.destroy();
            process.waitFor();
        }
    }

    private static void awaitStarted(io.modelcontextprotocol.modern.client.McpSyncClient client, Process process,
            Path log) {
        await("the jar answering server/discover").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    if (!process.isAlive()) {
                        throw new AssertionError("the jar did not start:\n" + Files.readString(log));
                    }
                    try {
                        client.discover();
                        return true;
                    } catch (RuntimeException notYet) {
                        return false;
                    }
                });
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

package dev.opledger.e2e.mcp;

import static dev.opledger.e2e.mcp.ReferenceToolsFixture.newOperationId;
import static dev.opledger.e2e.mcp.ReferenceToolsFixture.properties;
import static dev.opledger.e2e.mcp.ReferenceToolsFixture.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.mcp.ToolAnswer;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.internal.McpProperties;
import dev.opledger.mcp.internal.McpProtocol;
import dev.opledger.mcp.internal.McpToolClient;
import dev.opledger.testing.TestDatabase;
import dev.opledger.tools.ReferenceTools;
import dev.opledger.tools.ReferenceToolsServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the node's MCP client sends a 2026-07-28 server for the checkout's three steps, as the
 * server's own access log (Tomcat's) records it: one {@code server/discover} and one
 * {@code tools/list} for the client's life (the revision probe, the hints behind the tools'
 * classes), then one HTTP/1.1 POST {@code tools/call} per call over kept-alive connections, and
 * nothing else: no {@code tasks/get} for a tool that answered at once, no discovery or listing per
 * call, no GET stream, no protocol upgrade. Issue 13 measured exactly this against reference-tools
 * in the checkout benchmark (docs/benchmarks.md, "Issue 13: the tool server's 3×"); a request more
 * per call would cost every tool server a third more requests.
 */
class McpRequestsPerCallIT {

    private static final int CHECKOUTS = 5;
    private static final List<String> STEPS = List.of("reserve_inventory", "capture_payment", "send_message");

    @TempDir
    static Path logs;

    private static ReferenceToolsServer server;

    @BeforeAll
    static void startAServerThatLogsItsRequests() {
        var database = TestDatabase.shared();
        server = ReferenceTools.start(0, database.url(), database.username(), database.password(), Map.of(
                "server.tomcat.accesslog.enabled", "true",
                "server.tomcat.accesslog.directory", logs.toString(),
                "server.tomcat.accesslog.prefix", "requests",
                "server.tomcat.accesslog.suffix", ".log",
                "server.tomcat.accesslog.rotate", "false",
                "server.tomcat.accesslog.buffered", "false",
                // the method, the HTTP version, the MCP method and name headers, the client's port (its connection)
                "server.tomcat.accesslog.pattern", "%m %H %{Mcp-Method}i %{Mcp-Name}i %{Upgrade}i %{remote}p"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void eachCallOfACheckoutIsOnePostAndTheClientDiscoversAndListsOnce() throws Exception {
        // auto, the default: the node probes the revision, as the benchmark's node does
        try (var client = new McpToolClient(properties("tools",
                McpProperties.Server.http(server.url(), McpProtocol.AUTO, Duration.ofSeconds(20), Map.of())))) {
            for (int i = 0; i < CHECKOUTS; i++) {
                String operation = newOperationId();
                for (String tool : STEPS) {
                    var ref = new ToolRef("tools", tool);
                    // as the effect gateway does per step: the hints behind the tool's class, then the call
                    assertThat(client.hints(ref)).isPresent();
                    ToolAnswer answer = client.callAllowingTask(ref, arguments(operation, tool), null);
                    assertThat(answer).isInstanceOfSatisfying(ToolAnswer.Replied.class,
                            replied -> assertThat(replied.reply().error()).as(tool + ": " + replied.reply().text()).isFalse());
                }
            }
        }

        // a line is written after its response has gone out: wait for the last one
        await().atMost(Duration.ofSeconds(10)).until(() -> requests().stream().filter(line -> line.contains("tools/call")).count()
                == (long) CHECKOUTS * STEPS.size());
        List<String> requests = requests();
        Map<String, Long> byMethod = requests.stream()
                .collect(Collectors.groupingBy(line -> line.substring(0, line.lastIndexOf(' ')), Collectors.counting()));
        assertThat(byMethod).as("requests by HTTP method, version, MCP method, name, Upgrade").isEqualTo(Map.of(
                "POST HTTP/1.1 server/discover - -", 1L,
                "POST HTTP/1.1 tools/list - -", 1L,
                "POST HTTP/1.1 tools/call reserve_inventory -", (long) CHECKOUTS,
                "POST HTTP/1.1 tools/call capture_payment -", (long) CHECKOUTS,
                "POST HTTP/1.1 tools/call send_message -", (long) CHECKOUTS));
        long connections = requests.stream().map(line -> line.substring(line.lastIndexOf(' ') + 1)).distinct().count();
        assertThat(connections).as("connections for %s sequential requests (kept alive)", requests.size())
                .isLessThanOrEqualTo(2);
    }

    private static Map<String, Object> arguments(String operation, String tool) {
        return switch (tool) {
            case "reserve_inventory" -> step(operation, "reserve", "sku", "SKU-ESPRESSO", "quantity", 1,
                    "idempotencyKey", operation + ":reserve");
            case "capture_payment" -> step(operation, "capture", "amount", 49.9, "currency", "EUR",
                    "idempotencyKey", operation + ":capture");
            default -> step(operation, "receipt", "to", "ann@example.com", "text", "Thank you for your order");
        };
    }

    private static List<String> requests() throws IOException {
        try (Stream<Path> files = Files.list(logs)) {
            return files.filter(file -> file.getFileName().toString().startsWith("requests"))
                    .flatMap(file -> {
                        try {
                            return Files.readAllLines(file).stream();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .filter(line -> !line.isBlank())
                    .toList();
        }
    }
}

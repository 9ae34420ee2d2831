package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestTokens;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The TypeScript SDK 1.32.2 client, which most agents use today, against a node. It speaks MCP
 * 2025-11-25 (an {@code initialize} handshake) and the node serves 2026-07-28 only, so it cannot
 * list or call the tools: what the issue asks instead is that it gets, at once, an error saying
 * which revision the node serves — never a hang — and that nothing is stored (docs/mcp.md,
 * "Clients on 2025-11-25").
 */
@LongRunning
class TypeScriptSdkClientIT {

    /** Far above the answer's time on a loaded machine; a client waiting on an open stream would reach it. */
    private static final Duration NO_HANG = Duration.ofSeconds(60);

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void theTypeScriptSdkClientIsToldAtOnceWhichRevisionTheNodeServes() throws Exception {
        var client = TypeScriptSdkClient.install();
        var database = TestDatabase.fresh();
        ChildNode node = nodes.start("ts-sdk", database,
                List.of("--opledger.worker.enabled=false", "--opledger.reference-tools.embedded=false",
                        "--spring.datasource.hikari.maximum-pool-size=4"));
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject("ts-agent-" + UUID.randomUUID()));
        String operationId = UUID.randomUUID().toString();

        var report = client.connectListAndCall(node.node().uri("/mcp"), token, "checkout",
                "{\"operationId\":\"" + operationId + "\",\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":4.2,"
                        + "\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}",
                NO_HANG);

        assertThat(report.has("error")).as("the client got an error: %s", report).isTrue();
        assertThat(report.has("tools")).as("no tools listed on 2025-11-25").isFalse();
        String message = report.path("error").path("message").asString();
        assertThat(message).as("it says what the node serves and what it refused")
                .contains("-32022").contains("Unsupported protocol version 2025-11-25").contains("2026-07-28");
        assertThat(report.path("elapsedMs").asLong()).as("answered, not left waiting").isLessThan(NO_HANG.toMillis());
        try (var db = E2eDatabase.connect(database);
                var query = db.prepareStatement("SELECT count(*) FROM operation WHERE operation_id = ?::uuid")) {
            query.setString(1, operationId);
            try (var rows = query.executeQuery()) {
                rows.next();
                assertThat(rows.getInt(1)).as("nothing stored").isZero();
            }
        }
    }
}

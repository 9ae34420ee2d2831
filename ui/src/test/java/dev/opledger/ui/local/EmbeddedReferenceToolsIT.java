package dev.opledger.ui.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import dev.opledger.tools.ReferenceToolsServer;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The local run's set-up: a node with {@code opledger.reference-tools.embedded=true} runs a
 * checkout through the reference-tools server it started itself. Port 0 here, 8091 in the local
 * profile. Closed after the class: its workers must not run other classes' operations.
 */
@NodeIntegrationTest
@TestPropertySource(properties = {
        "opledger.reference-tools.embedded=true",
        "opledger.reference-tools.port=0",
        "opledger.worker.enabled=true",
        "opledger.worker.poll-interval=50ms"})
@DirtiesContext
class EmbeddedReferenceToolsIT {

    @LocalServerPort
    int port;

    @Autowired
    ReferenceToolsServer tools;

    @Value("${opledger.mcp.servers.reference.url}")
    String registered;

    @Test
    void theNodeRegistersTheServerItStartedAndRunsACheckoutThroughIt() {
        String subject = "local-" + UUID.randomUUID();
        String operation = UUID.randomUUID().toString();
        var api = ApiClient.onPort(port);

        var accepted = api.submit(TestTokens.forSubject(subject), operation, ApiClient.command("checkout",
                "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":12.50,\"currency\":\"EUR\",\"recipient\":\"bo@example.com\"}"));

        assertThat(accepted.statusCode()).isEqualTo(202);
        assertThat(registered).isEqualTo(tools.url().toString()).doesNotEndWith(":0/mcp");
        await().atMost(Duration.ofSeconds(30)).until(() -> "SUCCEEDED".equals(ApiClient.json(
                api.get(TestTokens.forSubject(subject), "/v1/operations/" + operation)).get("status").asString()));
        assertThat(tools.effects().ofOperation(operation)).extracting(effect -> effect.tool())
                .containsExactly("reserve_inventory", "capture_payment", "send_message");
    }
}

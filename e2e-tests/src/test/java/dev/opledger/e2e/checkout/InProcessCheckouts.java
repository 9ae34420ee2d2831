package dev.opledger.e2e.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.TestTokens;
import dev.opledger.tools.ReferenceToolsServer;
import java.util.List;
import java.util.UUID;

/** Checkouts submitted to the node of this test JVM, and their effects as the reference tool server logged them. */
final class InProcessCheckouts {

    private InProcessCheckouts() {
    }

    /** All five effects: reserve, capture, points (a new loyalty account each time), shipping, receipt. */
    static String full(String amount) {
        return "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":2,\"amount\":" + amount + ",\"currency\":\"EUR\","
                + "\"recipient\":\"ann@example.com\",\"loyaltyAccount\":\"ann-" + UUID.randomUUID() + "\","
                + "\"shippingAddress\":\"1 Main St\"}";
    }

    /** Submits through the API; the node answers 202 before any step ran. */
    static UUID submit(int port, String subject, String arguments) {
        UUID operationId = UUID.randomUUID();
        var response = ApiClient.onPort(port).submit(TestTokens.forSubject(subject), operationId.toString(),
                ApiClient.command("checkout", arguments));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        return operationId;
    }

    /** The real effects of the operation, as the tool server committed them: {@code tool@stepKey}. */
    static List<String> effects(ReferenceToolsServer tools, UUID operationId) {
        return tools.effects().ofOperation(operationId.toString()).stream()
                .map(effect -> effect.tool() + "@" + effect.stepKey()).toList();
    }
}

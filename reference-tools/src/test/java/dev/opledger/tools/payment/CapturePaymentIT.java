package dev.opledger.tools.payment;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.isError;
import static dev.opledger.tools.McpClients.step;
import static dev.opledger.tools.McpClients.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.tools.McpClients;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.TestServer;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** capture_payment is keyed. */
class CapturePaymentIT {

    private final ReferenceToolsServer server = TestServer.get();
    private final McpSyncClient client = McpClients.modern(server.url());
    private final String operation = TestServer.newOperationId();
    private final String key = operation + ":capture";

    @Test
    void aRepeatWithTheSameKeyReturnsTheCommittedPaymentAndMakesNoSecondEffect() {
        var first = structured(call(client, "capture_payment", step(operation, "capture",
                "amount", new BigDecimal("49.80"), "currency", "EUR", "idempotencyKey", key)));
        // the same amount written differently is the same payment
        var repeat = structured(call(client, "capture_payment",
                step(operation, "capture", "amount", 49.8, "currency", "EUR", "idempotencyKey", key)));

        assertThat(repeat.get("paymentId")).isEqualTo(first.get("paymentId"));
        assertThat(first).containsEntry("replayed", false);
        assertThat(repeat).containsEntry("replayed", true);
        assertThat(server.effects().count("capture_payment", operation, "capture")).isEqualTo(1);
    }

    @Test
    void theSameKeyWithAnotherCurrencyIsAToolError() {
        call(client, "capture_payment",
                step(operation, "capture", "amount", 10, "currency", "EUR", "idempotencyKey", key));

        var reused = call(client, "capture_payment",
                step(operation, "capture", "amount", 10, "currency", "USD", "idempotencyKey", key));

        assertThat(isError(reused)).isTrue();
        assertThat(structured(reused)).containsEntry("error", "IDEMPOTENCY_KEY_REUSED");
        assertThat(server.effects().ofOperation(operation)).hasSize(1);
    }

    @Test
    void withoutAKeyEveryCallCapturesAgain() {
        var arguments = step(operation, "capture", "amount", 5, "currency", "EUR");

        call(client, "capture_payment", arguments);
        call(client, "capture_payment", arguments);

        assertThat(server.effects().count("capture_payment", operation, "capture")).isEqualTo(2);
    }

    @Test
    void anAmountWithTooManyDecimalsIsAToolErrorWithoutEffect() {
        var refused = call(client, "capture_payment",
                step(operation, "capture", "amount", new BigDecimal("1.00001"), "currency", "EUR"));

        assertThat(isError(refused)).isTrue();
        assertThat(structured(refused)).containsEntry("error", "INVALID_ARGUMENTS");
        assertThat(server.effects().ofOperation(operation)).isEmpty();
    }
}

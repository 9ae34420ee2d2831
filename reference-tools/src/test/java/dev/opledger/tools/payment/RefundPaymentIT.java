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
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** refund_payment is keyed, and a payment is refunded at most once whatever the key. */
class RefundPaymentIT {

    private final ReferenceToolsServer server = TestServer.get();
    private final McpSyncClient client = McpClients.modern(server.url());
    private final String operation = TestServer.newOperationId();

    private String capture(String amount) {
        return (String) structured(call(client, "capture_payment", step(operation, "capture", "amount",
                new java.math.BigDecimal(amount), "currency", "EUR", "idempotencyKey", operation + ":capture")))
                .get("paymentId");
    }

    @Test
    void aRefundGivesThePaymentBackOnceAndARepeatWithTheKeyReturnsTheCommittedRefund() {
        String payment = capture("49.90");
        var arguments = step(operation, "refund", "paymentId", payment, "idempotencyKey", operation + ":refund");

        var first = structured(call(client, "refund_payment", arguments));
        var repeat = structured(call(client, "refund_payment", arguments));

        assertThat(first).containsEntry("replayed", false).containsEntry("paymentId", payment)
                .containsEntry("currency", "EUR");
        assertThat(first.get("amount").toString()).isEqualTo("49.9");
        assertThat(repeat).containsEntry("replayed", true).containsEntry("refundId", first.get("refundId"));
        assertThat(server.effects().count("refund_payment", operation, "refund")).isEqualTo(1);
        assertThat(server.effects().ofOperation(operation)).extracting(effect -> effect.tool())
                .containsExactly("capture_payment", "refund_payment");
    }

    @Test
    void aSecondRefundUnderAnotherKeyIsRefusedAndAKeyReusedForAnotherPaymentIsAnError() {
        String payment = capture("10.00");
        call(client, "refund_payment", step(operation, "refund", "paymentId", payment, "idempotencyKey", "k1-" + operation));

        var again = call(client, "refund_payment", step(operation, "refund", "paymentId", payment,
                "idempotencyKey", "k2-" + operation));
        assertThat(isError(again)).isTrue();
        assertThat(structured(again)).containsEntry("error", "ALREADY_REFUNDED");

        var other = (String) structured(call(client, "capture_payment", step(operation, "capture2", "amount",
                new java.math.BigDecimal("5.00"), "currency", "EUR"))).get("paymentId");
        var reused = call(client, "refund_payment", step(operation, "refund", "paymentId", other,
                "idempotencyKey", "k1-" + operation));
        assertThat(isError(reused)).isTrue();
        assertThat(structured(reused)).containsEntry("error", "IDEMPOTENCY_KEY_REUSED");

        var unknown = call(client, "refund_payment", step(operation, "refund", "paymentId", UUID.randomUUID().toString()));
        assertThat(structured(unknown)).containsEntry("error", "UNKNOWN_PAYMENT");
        assertThat(server.effects().count("refund_payment", operation, "refund")).isEqualTo(1);
    }
}

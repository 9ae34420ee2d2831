package dev.opledger.tools.fault;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.isError;
import static dev.opledger.tools.McpClients.step;
import static dev.opledger.tools.McpClients.structured;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.tools.McpClients;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.TestServer;
import io.modelcontextprotocol.modern.client.McpResponseLostException;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** delay, fail and drop-response, per request (header) and standing (launcher), in both revisions. */
class FaultInjectionIT {

    private final ReferenceToolsServer server = TestServer.get();
    private final String operation = TestServer.newOperationId();
    private final Map<String, Object> message = step(operation, "notify", "to", "ada@example.org", "text", "Hello");

    @AfterEach
    void clearStandingFaults() {
        server.faults().clear();
    }

    @Test
    void delayHoldsTheCallThenItsEffectLands() {
        var client = McpClients.modern(server.url(), "send_message=delay:400");

        long started = System.nanoTime();
        var result = call(client, "send_message", message);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(isError(result)).isFalse();
        assertThat(server.effects().count("send_message", operation, "notify")).isEqualTo(1);
    }

    @Test
    void failAnswersAToolErrorWithoutAnEffect() {
        var result = call(McpClients.modern(server.url(), "send_message=fail"), "send_message", message);

        assertThat(isError(result)).isTrue();
        assertThat(structured(result)).containsEntry("error", "INJECTED_FAILURE");
        assertThat(server.effects().ofOperation(operation)).isEmpty();
    }

    @Test
    void dropResponseCommitsTheEffectAndTheModernClientLosesTheResponse() {
        var client = McpClients.modern(server.url(), "send_message=drop-response");

        assertThatThrownBy(() -> call(client, "send_message", message)).isInstanceOf(McpResponseLostException.class);
        assertThat(server.effects().count("send_message", operation, "notify")).isEqualTo(1);
    }

    @Test
    void dropResponseCommitsTheEffectAndTheClassicClientGetsNoAnswer() {
        try (var client = McpClients.classic(server.url(), "send_message=drop-response")) {
            assertThatThrownBy(() -> client.callTool(new CallToolRequest("send_message", message)))
                    .isInstanceOf(RuntimeException.class);
            assertThat(server.effects().count("send_message", operation, "notify")).isEqualTo(1);

            // the session outlives the dropped connection
            var product = client.callTool(
                    new CallToolRequest("get_product", step(operation, "look", "sku", "SKU-MUG")));
            assertThat(product.isError()).isFalse();
        }
    }

    @Test
    void aKeyedRepeatAfterALostResponseFindsTheCommittedReservation() {
        var arguments = step(operation, "reserve", "sku", "SKU-ESPRESSO", "quantity", 1,
                "idempotencyKey", operation + ":reserve");
        assertThatThrownBy(() -> call(McpClients.modern(server.url(), "reserve_inventory=drop-response"),
                "reserve_inventory", arguments)).isInstanceOf(McpResponseLostException.class);

        var repeat = structured(call(McpClients.modern(server.url()), "reserve_inventory", arguments));

        assertThat(repeat).containsEntry("replayed", true);
        assertThat(server.effects().ofOperation(operation)).singleElement()
                .satisfies(effect -> assertThat(effect.resultId()).isEqualTo(repeat.get("reservationId")));
    }

    @Test
    void aStandingFaultForTheNextCallOnlyFaultsOneCall() {
        server.faults().inject("send_message", "fail*1");
        var client = McpClients.modern(server.url());

        var first = call(client, "send_message", message);
        var second = call(client, "send_message", message);

        assertThat(isError(first)).isTrue();
        assertThat(isError(second)).isFalse();
        assertThat(server.effects().count("send_message", operation, "notify")).isEqualTo(1);
    }

    @Test
    void aHeaderNamesTheToolsItFaults() {
        var client = McpClients.modern(server.url(), "capture_payment=fail, *=delay:1");

        var result = call(client, "send_message", message);

        assertThat(isError(result)).isFalse();
        assertThat(server.effects().count("send_message", operation, "notify")).isEqualTo(1);
    }

    @Test
    void anUnreadableHeaderRefusesTheCall() {
        var result = call(McpClients.modern(server.url(), "send_message=explode"), "send_message", message);

        assertThat(structured(result)).containsEntry("error", "INVALID_FAULT");
        assertThat(server.effects().ofOperation(operation)).isEmpty();
    }
}

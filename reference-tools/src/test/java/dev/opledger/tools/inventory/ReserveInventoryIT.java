package dev.opledger.tools.inventory;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.isError;
import static dev.opledger.tools.McpClients.step;
import static dev.opledger.tools.McpClients.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.tools.McpClients;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.TestServer;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** reserve_inventory is keyed; get_product only reads. */
class ReserveInventoryIT {

    private final ReferenceToolsServer server = TestServer.get();
    private final McpSyncClient client = McpClients.modern(server.url());
    private final String operation = TestServer.newOperationId();

    @Test
    void aRepeatWithTheSameKeyReturnsTheCommittedReservationAndMakesNoSecondEffect() {
        var arguments = step(operation, "reserve", "sku", "SKU-ESPRESSO", "quantity", 2,
                "idempotencyKey", operation + ":reserve");

        var first = structured(call(client, "reserve_inventory", arguments));
        var repeat = structured(call(client, "reserve_inventory", arguments));

        assertThat(first).containsEntry("replayed", false).containsEntry("quantity", 2);
        assertThat(repeat.get("reservationId")).isEqualTo(first.get("reservationId"));
        assertThat(repeat).containsEntry("replayed", true);
        assertThat(server.effects().count("reserve_inventory", operation, "reserve")).isEqualTo(1);
        assertThat(server.effects().ofOperation(operation).getFirst().idempotencyKey())
                .isEqualTo(operation + ":reserve");
    }

    @Test
    void theSameKeyWithOtherArgumentsIsAToolErrorAndChangesNothing() {
        String key = operation + ":reserve";
        call(client, "reserve_inventory", step(operation, "reserve", "sku", "SKU-ESPRESSO", "quantity", 1,
                "idempotencyKey", key));

        var reused = call(client, "reserve_inventory", step(operation, "reserve", "sku", "SKU-ESPRESSO", "quantity", 5,
                "idempotencyKey", key));

        assertThat(isError(reused)).isTrue();
        assertThat(structured(reused)).containsEntry("error", "IDEMPOTENCY_KEY_REUSED");
        assertThat(server.effects().ofOperation(operation)).hasSize(1);
    }

    @Test
    void withoutAKeyEveryCallReservesAgain() {
        var arguments = step(operation, "reserve", "sku", "SKU-GRINDER", "quantity", 1);

        var first = structured(call(client, "reserve_inventory", arguments));
        var second = structured(call(client, "reserve_inventory", arguments));

        assertThat(second.get("reservationId")).isNotEqualTo(first.get("reservationId"));
        assertThat(server.effects().count("reserve_inventory", operation, "reserve")).isEqualTo(2);
    }

    @Test
    void concurrentRepeatsWithOneKeyMakeOneReservation() throws Exception {
        var arguments = step(operation, "reserve", "sku", "SKU-ESPRESSO", "quantity", 1,
                "idempotencyKey", operation + ":reserve");
        Callable<Object> reserve = () -> structured(
                call(McpClients.modern(server.url()), "reserve_inventory", arguments)).get("reservationId");

        List<Object> ids;
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            var futures = executor.invokeAll(IntStream.range(0, 6).mapToObj(i -> reserve).toList());
            ids = futures.stream().map(future -> {
                try {
                    return future.get();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).toList();
        }

        assertThat(ids).containsOnly(ids.getFirst());
        assertThat(server.effects().count("reserve_inventory", operation, "reserve")).isEqualTo(1);
    }

    @Test
    void anUnknownProductOrShortStockIsAToolErrorWithoutEffect() {
        var unknown = call(client, "reserve_inventory", step(operation, "reserve", "sku", "SKU-NONE", "quantity", 1));
        var tooMany = call(client, "reserve_inventory", step(operation, "reserve", "sku", "SKU-MUG", "quantity", 4));

        assertThat(structured(unknown)).containsEntry("error", "UNKNOWN_SKU");
        assertThat(structured(tooMany)).containsEntry("error", "INSUFFICIENT_STOCK");
        assertThat(server.effects().ofOperation(operation)).isEmpty();
    }

    @Test
    void getProductShowsTheStockAReservationTookAndMakesNoEffect() {
        var lookup = step(operation, "look", "sku", "SKU-GRINDER");
        long before = ((Number) structured(call(client, "get_product", lookup)).get("onHand")).longValue();

        call(client, "reserve_inventory", step(operation, "reserve", "sku", "SKU-GRINDER", "quantity", 3));
        var after = structured(call(client, "get_product", lookup));

        assertThat(((Number) after.get("onHand")).longValue()).isEqualTo(before - 3);
        assertThat(after).containsEntry("name", "Burr grinder").containsEntry("currency", "EUR");
        assertThat(server.effects().count("get_product", operation, "look")).isZero();
    }
}

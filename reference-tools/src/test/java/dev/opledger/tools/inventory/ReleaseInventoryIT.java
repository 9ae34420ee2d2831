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
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** release_inventory is keyed, and a reservation is released at most once whatever the key. */
class ReleaseInventoryIT {

    private final ReferenceToolsServer server = TestServer.get();
    private final McpSyncClient client = McpClients.modern(server.url());
    private final String operation = TestServer.newOperationId();

    private String reserve(String sku, int quantity) {
        return (String) structured(call(client, "reserve_inventory", step(operation, "reserve", "sku", sku,
                "quantity", quantity, "idempotencyKey", operation + ":reserve"))).get("reservationId");
    }

    private long onHand(String sku) {
        return ((Number) structured(call(client, "get_product", step(operation, "look", "sku", sku))).get("onHand"))
                .longValue();
    }

    @Test
    void releasingPutsTheStockBackOnceAndARepeatWithTheKeyReturnsTheCommittedRelease() {
        long before = onHand("SKU-GRINDER");
        String reservation = reserve("SKU-GRINDER", 2);
        var arguments = step(operation, "release", "reservationId", reservation,
                "idempotencyKey", operation + ":release");

        var first = structured(call(client, "release_inventory", arguments));
        var repeat = structured(call(client, "release_inventory", arguments));

        assertThat(first).containsEntry("replayed", false).containsEntry("reservationId", reservation)
                .containsEntry("sku", "SKU-GRINDER").containsEntry("quantity", 2);
        assertThat(repeat).containsEntry("replayed", true).containsEntry("releaseId", first.get("releaseId"));
        assertThat(onHand("SKU-GRINDER")).isEqualTo(before);
        assertThat(server.effects().count("release_inventory", operation, "release")).isEqualTo(1);
        assertThat(server.effects().ofOperation(operation)).extracting(effect -> effect.tool())
                .containsExactly("reserve_inventory", "release_inventory");
    }

    @Test
    void aSecondReleaseWithoutTheKeyIsRefusedAndPutsNothingBack() {
        String reservation = reserve("SKU-ESPRESSO", 3);
        call(client, "release_inventory", step(operation, "release", "reservationId", reservation));
        long afterFirst = onHand("SKU-ESPRESSO");

        var again = call(client, "release_inventory", step(operation, "release", "reservationId", reservation));

        assertThat(isError(again)).isTrue();
        assertThat(structured(again)).containsEntry("error", "ALREADY_RELEASED");
        assertThat(onHand("SKU-ESPRESSO")).isEqualTo(afterFirst);
        assertThat(server.effects().count("release_inventory", operation, "release")).isEqualTo(1);
    }

    @Test
    void theSameKeyForAnotherReservationIsAToolErrorAndChangesNothing() {
        String key = operation + ":release";
        String first = reserve("SKU-ESPRESSO", 1);
        call(client, "release_inventory", step(operation, "release", "reservationId", first, "idempotencyKey", key));
        String other = (String) structured(call(client, "reserve_inventory", step(operation, "reserve-2",
                "sku", "SKU-ESPRESSO", "quantity", 1))).get("reservationId");

        var reused = call(client, "release_inventory", step(operation, "release", "reservationId", other,
                "idempotencyKey", key));

        assertThat(structured(reused)).containsEntry("error", "IDEMPOTENCY_KEY_REUSED");
        assertThat(server.effects().count("release_inventory", operation, "release")).isEqualTo(1);
    }

    @Test
    void anUnknownOrMalformedReservationIsAToolErrorWithoutEffect() {
        var unknown = call(client, "release_inventory", step(operation, "release",
                "reservationId", UUID.randomUUID().toString()));
        var malformed = call(client, "release_inventory", step(operation, "release", "reservationId", "not-a-uuid"));

        assertThat(structured(unknown)).containsEntry("error", "UNKNOWN_RESERVATION");
        assertThat(structured(malformed)).containsEntry("error", "INVALID_ARGUMENTS");
        assertThat(server.effects().ofOperation(operation)).isEmpty();
    }

    @Test
    void concurrentReleasesOfOneReservationReleaseItOnce() throws Exception {
        long before = onHand("SKU-GRINDER");
        String reservation = reserve("SKU-GRINDER", 1);
        Callable<Boolean> release = () -> isError(call(McpClients.modern(server.url()), "release_inventory",
                step(operation, "release", "reservationId", reservation)));

        List<Boolean> refused;
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            refused = executor.invokeAll(IntStream.range(0, 6).mapToObj(i -> release).toList()).stream()
                    .map(future -> {
                        try {
                            return future.get();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }).toList();
        }

        assertThat(refused).containsOnlyOnce(false);
        assertThat(server.effects().count("release_inventory", operation, "release")).isEqualTo(1);
        assertThat(onHand("SKU-GRINDER")).isEqualTo(before);
    }
}

package dev.opledger.tools;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.isError;
import static dev.opledger.tools.McpClients.step;
import static dev.opledger.tools.McpClients.structured;
import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Reading a row costs no exception: with JdbcClient's {@code query(SomeRecord.class)} and
 * {@code query(Instant.class)} the driver threw (and Spring caught) about 16 PSQLExceptions per
 * checkout, each with its stack trace, in the tool server's CPU. Counted with JFR's
 * {@code jdk.JavaExceptionThrow} (every Throwable constructed in this JVM, the in-process tool
 * server's threads included) around each call, after one warm-up of the same calls.
 */
class RowMappingWithoutExceptionsIT {

    private static final String PSQL_EXCEPTION = "org.postgresql.util.PSQLException";

    private final ReferenceToolsServer server = TestServer.get();
    private final McpSyncClient client = McpClients.modern(server.url());
    private final Set<String> messages = new TreeSet<>();

    @Test
    void noToolCallThrowsAPsqlExceptionWhileReadingItsRows() throws Exception {
        callEveryReadingPath(TestServer.newOperationId(), null);

        Map<String, Long> thrown = new LinkedHashMap<>();
        callEveryReadingPath(TestServer.newOperationId(), thrown);

        assertThat(thrown).hasSize(15);
        assertThat(thrown.values()).as("PSQLExceptions per call: %s, saying %s", thrown, messages).containsOnly(0L);
    }

    /** Every path that maps a row: the checkout's three calls, their repeats, and the other tools. */
    private void callEveryReadingPath(String operation, @Nullable Map<String, Long> thrown) throws Exception {
        var reserved = counted(thrown, "reserve_inventory", () -> call(client, "reserve_inventory",
                step(operation, "reserve", "sku", "SKU-ESPRESSO", "quantity", 1, "idempotencyKey", operation + ":r")));
        counted(thrown, "reserve_inventory (repeat)", () -> call(client, "reserve_inventory",
                step(operation, "reserve", "sku", "SKU-ESPRESSO", "quantity", 1, "idempotencyKey", operation + ":r")));
        var captured = counted(thrown, "capture_payment", () -> call(client, "capture_payment", step(operation,
                "capture", "amount", new BigDecimal("24.90"), "currency", "EUR", "idempotencyKey", operation + ":c")));
        counted(thrown, "capture_payment (repeat)", () -> call(client, "capture_payment", step(operation,
                "capture", "amount", new BigDecimal("24.90"), "currency", "EUR", "idempotencyKey", operation + ":c")));
        counted(thrown, "send_message", () -> call(client, "send_message",
                step(operation, "receipt", "to", "ada@example.org", "text", "Your receipt")));
        counted(thrown, "get_product", () -> call(client, "get_product", step(operation, "look", "sku", "SKU-MUG")));
        counted(thrown, "release_inventory", () -> call(client, "release_inventory", step(operation, "release",
                "reservationId", structured(reserved).get("reservationId"), "idempotencyKey", operation + ":rr")));
        counted(thrown, "release_inventory (repeat)", () -> call(client, "release_inventory", step(operation,
                "release", "reservationId", structured(reserved).get("reservationId"), "idempotencyKey",
                operation + ":rr")));
        counted(thrown, "refund_payment", () -> call(client, "refund_payment", step(operation, "refund",
                "paymentId", structured(captured).get("paymentId"), "idempotencyKey", operation + ":cr")));
        counted(thrown, "refund_payment (repeat)", () -> call(client, "refund_payment", step(operation, "refund",
                "paymentId", structured(captured).get("paymentId"), "idempotencyKey", operation + ":cr")));
        counted(thrown, "adjust_points", () -> call(client, "adjust_points",
                step(operation, "points", "account", operation, "delta", 5)));
        counted(thrown, "get_points", () -> call(client, "get_points", step(operation, "points", "account", operation)));
        counted(thrown, "set_shipping_address", () -> call(client, "set_shipping_address",
                step(operation, "ship", "orderId", operation, "address", "1 Main St")));
        counted(thrown, "set_shipping_address (unchanged)", () -> call(client, "set_shipping_address",
                step(operation, "ship", "orderId", operation, "address", "1 Main St")));
        counted(thrown, "effects of the operation", () -> server.effects().ofOperation(operation));
    }

    /** Runs the call; with a map, records the PSQLExceptions constructed meanwhile under its name. */
    private <T> T counted(@Nullable Map<String, Long> thrown, String name, Supplier<T> call) throws Exception {
        if (thrown == null) {
            return succeeded(name, call.get());
        }
        Path file = Files.createTempFile("row-mapping-", ".jfr");
        try (var recording = new Recording()) {
            recording.enable("jdk.JavaExceptionThrow");
            recording.start();
            T result = succeeded(name, call.get());
            recording.stop();
            recording.dump(file);
            var psqlExceptions = RecordingFile.readAllEvents(file).stream()
                    .filter(event -> PSQL_EXCEPTION.equals(thrownClass(event)))
                    .toList();
            thrown.put(name, (long) psqlExceptions.size());
            psqlExceptions.forEach(event -> messages.add(name + ": " + event.getString("message")));
            return result;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static <T> T succeeded(String name, T result) {
        if (result instanceof CallToolResult toolResult) {
            assertThat(isError(toolResult)).as(name + ": " + toolResult).isFalse();
        }
        return result;
    }

    private static @Nullable String thrownClass(RecordedEvent event) {
        RecordedClass thrown = event.getClass("thrownClass");
        return thrown == null ? null : thrown.getName();
    }
}

package dev.opledger.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.McpSchema.ToolAnnotations;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What tools/list shows in both revisions: names, honest annotations, schemas and repeat classes. */
class ToolListingIT {

    private final ReferenceToolsServer server = TestServer.get();

    @Test
    void listsEveryToolWithHonestAnnotationsOverTheModernRevision() {
        Map<String, Tool> tools = McpClients.modern(server.url()).listTools().list().tools().stream()
                .collect(Collectors.toMap(Tool::name, Function.identity()));

        assertThat(tools).containsOnlyKeys("reserve_inventory", "release_inventory", "capture_payment", "refund_payment",
                "send_message", "adjust_points", "get_points", "set_shipping_address", "get_product", "wrap_gift");
        //                                                   readOnly destructive idempotent openWorld
        assertThat(hints(tools.get("reserve_inventory"))).containsExactly(false, false, false, false);
        assertThat(hints(tools.get("release_inventory"))).containsExactly(false, true, true, false);
        assertThat(hints(tools.get("capture_payment"))).containsExactly(false, false, false, false);
        assertThat(hints(tools.get("refund_payment"))).containsExactly(false, true, true, false);
        assertThat(hints(tools.get("send_message"))).containsExactly(false, false, false, false);
        assertThat(hints(tools.get("adjust_points"))).containsExactly(false, false, false, false);
        assertThat(hints(tools.get("set_shipping_address"))).containsExactly(false, true, true, false);
        assertThat(hints(tools.get("get_points"))).containsExactly(true, false, true, false);
        assertThat(hints(tools.get("get_product"))).containsExactly(true, false, true, false);
        assertThat(hints(tools.get("wrap_gift"))).containsExactly(false, false, false, false);

        assertThat(tools.get("reserve_inventory").meta()).containsEntry("dev.opledger/repeatClass", "keyed")
                .containsEntry("dev.opledger/idempotencyKeyArgument", "idempotencyKey");
        assertThat(tools.get("release_inventory").meta()).containsEntry("dev.opledger/repeatClass", "keyed")
                .containsEntry("dev.opledger/idempotencyKeyArgument", "idempotencyKey");
        assertThat(tools.get("capture_payment").meta()).containsEntry("dev.opledger/repeatClass", "keyed");
        assertThat(tools.get("refund_payment").meta()).containsEntry("dev.opledger/repeatClass", "keyed")
                .containsEntry("dev.opledger/idempotencyKeyArgument", "idempotencyKey");
        assertThat(tools.get("send_message").meta()).containsEntry("dev.opledger/repeatClass", "never-repeat");
        assertThat(tools.get("adjust_points").meta()).containsEntry("dev.opledger/repeatClass", "check-then-write")
                .containsEntry("dev.opledger/checkTool", "get_points");
        assertThat(tools.get("set_shipping_address").meta()).containsEntry("dev.opledger/repeatClass", "idempotent");
        assertThat(tools.get("get_product").meta()).containsEntry("dev.opledger/repeatClass", "read-only");
        assertThat(tools.get("wrap_gift").meta()).containsEntry("dev.opledger/repeatClass", "keyed")
                .containsEntry("dev.opledger/idempotencyKeyArgument", "idempotencyKey");

        assertThat(required(tools.get("reserve_inventory")))
                .containsExactlyInAnyOrder("operationId", "stepKey", "sku", "quantity");
        assertThat(required(tools.get("release_inventory")))
                .containsExactlyInAnyOrder("operationId", "stepKey", "reservationId");
        assertThat(required(tools.get("capture_payment")))
                .containsExactlyInAnyOrder("operationId", "stepKey", "amount", "currency");
        assertThat(required(tools.get("refund_payment")))
                .containsExactlyInAnyOrder("operationId", "stepKey", "paymentId");
        assertThat(required(tools.get("send_message")))
                .containsExactlyInAnyOrder("operationId", "stepKey", "to", "text");
        assertThat(required(tools.get("adjust_points")))
                .containsExactlyInAnyOrder("operationId", "stepKey", "account", "delta");
        assertThat(required(tools.get("get_points"))).containsExactlyInAnyOrder("operationId", "stepKey", "account");
        assertThat(required(tools.get("set_shipping_address")))
                .containsExactlyInAnyOrder("operationId", "stepKey", "orderId", "address");
        assertThat(required(tools.get("get_product"))).containsExactlyInAnyOrder("operationId", "stepKey", "sku");
        assertThat(required(tools.get("wrap_gift")))
                .containsExactlyInAnyOrder("operationId", "stepKey", "orderId", "sku", "quantity");
    }

    @Test
    void discoveryOffersTools() {
        assertThat(McpClients.modern(server.url()).discover().capabilities().tools()).isNotNull();
    }

    @Test
    void theClassicRevisionOnTheSameUrlListsTheSameToolsAndHintsButNoTaskTool() {
        try (var client = McpClients.classic(server.url(), null)) {
            assertThat(client.getCurrentInitializationResult().protocolVersion()).isEqualTo("2025-11-25");
            Map<String, io.modelcontextprotocol.spec.McpSchema.Tool> tools = client.listTools().tools().stream()
                    .collect(Collectors.toMap(io.modelcontextprotocol.spec.McpSchema.Tool::name, Function.identity()));

            // wrap_gift runs as a task, which the 2025-11-25 revision served here cannot carry
            assertThat(tools).hasSize(9).doesNotContainKey("wrap_gift");
            var send = tools.get("send_message").annotations();
            assertThat(List.of(send.readOnlyHint(), send.destructiveHint(), send.idempotentHint(),
                    send.openWorldHint())).containsExactly(false, false, false, false);
            var address = tools.get("set_shipping_address").annotations();
            assertThat(List.of(address.readOnlyHint(), address.destructiveHint(), address.idempotentHint()))
                    .containsExactly(false, true, true);
            assertThat(tools.get("get_points").annotations().readOnlyHint()).isTrue();
            assertThat(tools.get("capture_payment").meta()).containsEntry("dev.opledger/repeatClass", "keyed");
            assertThat(tools.get("refund_payment").meta()).containsEntry("dev.opledger/repeatClass", "keyed");
        }
    }

    private static List<Boolean> hints(Tool tool) {
        ToolAnnotations annotations = tool.annotations();
        return List.of(annotations.readOnlyHint(), annotations.destructiveHint(), annotations.idempotentHint(),
                annotations.openWorldHint());
    }

    @SuppressWarnings("unchecked")
    private static List<String> required(Tool tool) {
        return (List<String>) tool.inputSchema().get("required");
    }
}

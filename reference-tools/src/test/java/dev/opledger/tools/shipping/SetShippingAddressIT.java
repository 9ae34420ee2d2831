package dev.opledger.tools.shipping;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.step;
import static dev.opledger.tools.McpClients.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.TestDatabase;
import dev.opledger.tools.McpClients;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.TestServer;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** set_shipping_address sets, never appends. */
class SetShippingAddressIT {

    private final ReferenceToolsServer server = TestServer.get();
    private final McpSyncClient client = McpClients.modern(server.url());
    private final String operation = TestServer.newOperationId();
    private final String order = "order-" + operation;

    @Test
    void aRepeatLeavesOneAddressAndOneEffect() throws SQLException {
        var arguments = step(operation, "address", "orderId", order, "address", "1 Main St, Springfield");

        var first = structured(call(client, "set_shipping_address", arguments));
        var repeat = structured(call(client, "set_shipping_address", arguments));

        assertThat(first).containsEntry("changed", true);
        assertThat(repeat).containsEntry("changed", false).containsEntry("address", "1 Main St, Springfield");
        assertThat(storedAddresses()).containsExactly("1 Main St, Springfield");
        assertThat(server.effects().count("set_shipping_address", operation, "address")).isEqualTo(1);
    }

    @Test
    void anotherAddressReplacesTheFirst() throws SQLException {
        call(client, "set_shipping_address", step(operation, "address", "orderId", order, "address", "1 Main St"));
        call(client, "set_shipping_address", step(operation, "correct", "orderId", order, "address", "2 Elm St"));

        assertThat(storedAddresses()).containsExactly("2 Elm St");
        assertThat(server.effects().ofOperation(operation)).hasSize(2);
    }

    private List<String> storedAddresses() throws SQLException {
        var database = TestDatabase.shared();
        try (var connection = DriverManager.getConnection(database.url(), database.username(), database.password());
                var statement = connection.prepareStatement(
                        "SELECT address FROM reference_tools.shipping_address WHERE order_id = ?")) {
            statement.setString(1, order);
            List<String> addresses = new ArrayList<>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    addresses.add(rows.getString(1));
                }
            }
            return addresses;
        }
    }
}

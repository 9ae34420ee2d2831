package dev.opledger.e2e;

import static dev.opledger.testing.ApiClient.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.cli.device.DeviceVariant;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What {@code ./opledger run} gives: the production jar in the local profile (App Attest required)
 * runs an attested checkout to SUCCEEDED through the reference-tools server it started inside
 * itself (on a free port here, 8091 by default), whose effects land in {@code reference_tools} of
 * the node's database.
 */
@ExtendWith(NodeExtension.class)
@LongRunning
class LocalRunIT {

    @Test
    void anAttestedCheckoutRunsToTheEndThroughTheEmbeddedReferenceTools(RunningNode node) throws SQLException {
        var device = new AttestedDevice(node, "local-" + UUID.randomUUID(), DeviceVariant.APPLE);
        assertThat(device.register().statusCode()).isEqualTo(201);
        String operationId = UUID.randomUUID().toString();

        var accepted = device.attempt(operationId, command("checkout", "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,"
                + "\"amount\":49.90,\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}")).send();

        assertThat(accepted.statusCode()).isEqualTo(202);
        assertThat(node.logTail(2000)).contains("reference-tools runs inside this node at http://127.0.0.1:");
        try (Connection db = E2eDatabase.connect()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> E2eQueries.list(db,
                    "SELECT status FROM operation WHERE operation_id = ?::uuid", operationId).contains("SUCCEEDED"));
            assertThat(E2eQueries.list(db, "SELECT tool || '@' || step_key FROM reference_tools.effect_log "
                    + "WHERE operation_id = ? ORDER BY effect_id", operationId))
                    .containsExactly("reserve_inventory@reserve", "capture_payment@capture", "send_message@receipt");
        }
    }
}

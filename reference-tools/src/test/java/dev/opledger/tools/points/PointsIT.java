package dev.opledger.tools.points;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.step;
import static dev.opledger.tools.McpClients.structured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.tools.McpClients;
import dev.opledger.tools.ReferenceToolsServer;
import dev.opledger.tools.TestServer;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** adjust_points is not idempotent; get_points is its check. */
class PointsIT {

    private final ReferenceToolsServer server = TestServer.get();
    private final McpSyncClient client = McpClients.modern(server.url());
    private final String operation = TestServer.newOperationId();
    private final String account = "acct-" + operation;

    @Test
    void aCallerChecksThenWritesOnce() {
        assertThat(check("award")).containsEntry("applied", false).containsEntry("balance", 0);

        var adjusted = structured(
                call(client, "adjust_points", step(operation, "award", "account", account, "delta", 120)));
        var checked = check("award");

        assertThat(adjusted).containsEntry("balance", 120);
        assertThat(checked).containsEntry("applied", true).containsEntry("balance", 120);
        assertThat(((Map<?, ?>) checked.get("appliedAdjustment")).get("adjustmentId"))
                .isEqualTo(adjusted.get("adjustmentId"));
        assertThat((List<?>) checked.get("recent")).hasSize(1);
        assertThat(check("another-step")).containsEntry("applied", false);
        assertThat(server.effects().count("adjust_points", operation, "award")).isEqualTo(1);
        assertThat(server.effects().count("get_points", operation, "award")).isZero();
    }

    @Test
    void aBlindRepeatAddsAgain() {
        var arguments = step(operation, "award", "account", account, "delta", 50);

        call(client, "adjust_points", arguments);
        var repeat = structured(call(client, "adjust_points", arguments));

        assertThat(repeat).containsEntry("balance", 100);
        assertThat(server.effects().count("adjust_points", operation, "award")).isEqualTo(2);
    }

    @Test
    void aNegativeDeltaTakesPointsAway() {
        call(client, "adjust_points", step(operation, "award", "account", account, "delta", 30));
        var taken = structured(
                call(client, "adjust_points", step(operation, "redeem", "account", account, "delta", -10)));

        assertThat(taken).containsEntry("balance", 20).containsEntry("delta", -10);
    }

    private Map<String, Object> check(String stepKey) {
        return structured(call(client, "get_points", step(operation, stepKey, "account", account)));
    }
}

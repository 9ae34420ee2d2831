package dev.opledger.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.mcpserver.McpAgent;
import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.TestDatabase;
import dev.opledger.testing.TestTokens;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An agent's task outlives the node that created it: node A answers a task-augmented
 * {@code tools/call} with a CreateTaskResult and is killed with SIGKILL before the agent's first
 * {@code tasks/get}; node B (same database) resolves that task id, and the agent's retry of the
 * call through B (its CreateTaskResult lost with A, say) returns the same task, not a second one.
 * Workers are off on both nodes, so the operation is still waiting when B is asked: the task is
 * the durable row, not anything A held in memory.
 */
@LongRunning
class McpTaskNodeDeathIT {

    @RegisterExtension
    final ChildNodes nodes = new ChildNodes();

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aTaskCreatedOnANodeKilledBeforeTheFirstGetIsFoundOnAnotherNode() throws Exception {
        var database = TestDatabase.fresh();
        // two nodes of the local profile: neither starts its own reference-tools (both would want its port)
        List<String> apiOnly = List.of("--opledger.worker.enabled=false", "--opledger.reference-tools.embedded=false",
                "--spring.datasource.hikari.maximum-pool-size=4");
        // one after the other: started together, the second would wait for the first's Liquibase lock
        ChildNode a = nodes.start("mcp-task-a", database, apiOnly);
        ChildNode b = nodes.start("mcp-task-b", database, apiOnly);
        String subject = "agent-" + UUID.randomUUID();
        String token = TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject(subject));
        Map<String, Object> arguments = Map.of("operationId", UUID.randomUUID().toString(), "sku", "SKU-ESPRESSO",
                "quantity", 1, "amount", 4.20, "currency", "EUR", "recipient", "ann@example.com");

        var created = McpAgent.result(new McpAgent(a.node().base().getPort(), token).callTool("checkout", arguments, true));
        assertThat(a.kill()).as("A killed with SIGKILL").isEqualTo(137);
        var agentOnB = new McpAgent(b.node().base().getPort(), token);
        var got = McpAgent.result(agentOnB.getTask((String) created.get("taskId")));
        var retried = McpAgent.result(agentOnB.callTool("checkout", arguments, true));
        var stranger = new McpAgent(b.node().base().getPort(),
                TestTokens.mint(TestTokens.LOCAL_SECRET, claims -> claims.subject("stranger-" + UUID.randomUUID())))
                .getTask((String) created.get("taskId"));

        assertThat(created).containsEntry("resultType", "task").containsKey("taskId");
        assertThat(got).containsEntry("resultType", "complete").containsEntry("taskId", created.get("taskId"))
                .containsEntry("status", "working").containsEntry("createdAt", created.get("createdAt"));
        assertThat(retried).containsEntry("resultType", "task").containsEntry("taskId", created.get("taskId"));
        assertThat(stranger.error()).as("another subject learns nothing").isNotNull();
        assertThat(stranger.error().code()).isEqualTo(-32602);
        assertThat(rows(database, "mcp_task", arguments.get("operationId"))).as("one task").isEqualTo(1);
        assertThat(rows(database, "operation", arguments.get("operationId"))).as("one operation").isEqualTo(1);
    }

    private static int rows(LocatedDatabase database, String table, Object operationId) throws SQLException {
        try (Connection db = E2eDatabase.connect(database);
                var query = db.prepareStatement("SELECT count(*) FROM " + table + " WHERE operation_id = ?::uuid")) {
            query.setString(1, operationId.toString());
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }
}

package dev.opledger.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.LedgerTables;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.RawHttp;
import dev.opledger.testing.TestTokens;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * A deployment that lets only tokens with a scope use MCP, and that requires App Attest: agents
 * with the scope submit without a device proof, the REST API still refuses an attempt without one.
 */
@NodeIntegrationTest
@TestPropertySource(properties = {"opledger.mcp-server.required-scope=opledger.mcp",
    "opledger.attest.mode=required", "opledger.attest.apps=OPLEDGERDV.dev.opledger.simulator"})
class McpServerScopeIT {

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    private static Map<String, Object> checkout(String operationId) {
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("operationId", operationId);
        arguments.put("sku", "SKU-ESPRESSO");
        arguments.put("quantity", 1);
        arguments.put("amount", 49.90);
        arguments.put("currency", "EUR");
        arguments.put("recipient", "ann@example.com");
        return arguments;
    }

    @Test
    void aTokenWithoutTheScopeGets403AndStoresNothing() {
        var tables = new LedgerTables(jdbc);
        Map<String, Long> before = tables.counts();
        String subject = "agent-" + UUID.randomUUID();
        var unscoped = new McpAgent(port, TestTokens.forSubject(subject));
        var otherScope = new McpAgent(port, TestTokens.mint(TestTokens.TEST_SECRET,
                claims -> claims.subject(subject).claim("scope", "opledger.read")));

        for (var agent : List.of(unscoped, otherScope)) {
            assertThatThrownBy(() -> agent.callTool("checkout", checkout(UUID.randomUUID().toString()), false))
                    .isInstanceOfSatisfying(McpHttpStatusException.class,
                            refused -> assertThat(refused.statusCode()).isEqualTo(403));
        }
        assertThat(tables.counts()).isEqualTo(before);
    }

    @Test
    void anAgentWithTheScopeSubmitsWithoutAppAttestWhileRestStillRequiresIt() {
        String subject = "agent-" + UUID.randomUUID();
        String operationId = UUID.randomUUID().toString();
        var scoped = new McpAgent(port, TestTokens.mint(TestTokens.TEST_SECRET,
                claims -> claims.subject(subject).claim("scope", "openid opledger.mcp")));
        var listed = new McpAgent(port, TestTokens.mint(TestTokens.TEST_SECRET,
                claims -> claims.subject(subject).claim("scp", List.of("opledger.mcp"))));

        var created = McpAgent.result(scoped.callTool("checkout", checkout(operationId), false));
        var again = McpAgent.result(listed.callTool("checkout", checkout(operationId), false));
        var rest = ApiClient.onPort(port).submit(TestTokens.forSubject(subject), UUID.randomUUID().toString(),
                Checkout.command(1));

        assertThat(created).containsEntry("isError", false);
        assertThat(again).containsEntry("isError", false);
        assertThat(jdbc.queryForObject("SELECT attested FROM operation WHERE operation_id = ?::uuid", Boolean.class,
                operationId)).isFalse();
        assertThat(rest.statusCode()).isEqualTo(401);
        assertThat(ApiClient.json(rest).get("type").asString())
                .isEqualTo("https://opledger.dev/problems/attestation-required");
    }

    @Test
    void aClientOfTheEarlierRevisionGetsAnAnswerNotAHang() {
        String token = TestTokens.mint(TestTokens.TEST_SECRET,
                claims -> claims.subject("agent-" + UUID.randomUUID()).claim("scope", "opledger.mcp"));
        var reply = new RawHttp(port).send(new RawHttp.Request("POST", "/mcp")
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                        + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"old\",\"version\":\"1\"}}}"));

        // the SDK's answer: -32022, unsupported protocol version, naming the one it speaks
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.text()).contains("\"code\":-32022").contains("\"supported\":[\"2026-07-28\"]");
    }
}

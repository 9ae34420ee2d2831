package dev.opledger.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.TestTokens;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.McpSchema;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

/**
 * Input before a task exists (synchronous MRTR) over the node's transport, with the conformance
 * fixture {@code test_tool_with_task} (profile {@code conformance}): round 1 asks, round 2 with
 * the answer and the sealed requestState creates one operation and its task; a replay of round 2
 * gets the same task; a client that forges, alters or borrows another subject's requestState, or
 * answers without one, creates nothing.
 */
@NodeIntegrationTest
@ActiveProfiles({"test", "conformance"})
class McpMultiRoundTripIT {

    private static final String TOOL = "test_tool_with_task";

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    McpAgent agent;
    String subject;

    @BeforeEach
    void setUp() {
        subject = "agent-" + UUID.randomUUID();
        agent = new McpAgent(port, TestTokens.forSubject(subject));
    }

    private JsonRpc.JSONRPCResponse call(McpAgent who, Map<String, Object> inputResponses, String requestState) {
        Map<String, Object> params = new HashMap<>();
        params.put("name", TOOL);
        params.put("arguments", Map.of());
        if (inputResponses != null) {
            params.put("inputResponses", inputResponses);
        }
        if (requestState != null) {
            params.put("requestState", requestState);
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("io.modelcontextprotocol/protocolVersion", McpSchema.LATEST_PROTOCOL_VERSION);
        meta.put("io.modelcontextprotocol/clientInfo", Map.of("name", "opledger-test-agent", "version", "1"));
        meta.put("io.modelcontextprotocol/clientCapabilities",
                Map.of("elicitation", Map.of(), "extensions", Map.of(McpAgent.TASKS, Map.of())));
        params.put("_meta", meta);
        return who.raw("tools/call", params, TOOL);
    }

    private static Map<String, Object> alice() {
        return Map.of("user_name", Map.of("action", "accept", "content", Map.of("name", "Alice")));
    }

    private long operations() {
        return jdbc.queryForObject("SELECT count(*) FROM operation WHERE subject_id = ? AND command_type = ?", Long.class,
                subject, TOOL);
    }

    @Test
    void roundOneAsksRoundTwoCreatesOneTaskAndAReplayFindsIt() {
        var first = McpAgent.result(call(agent, null, null));
        String state = (String) first.get("requestState");

        var second = McpAgent.result(call(agent, alice(), state));
        var replay = McpAgent.result(call(agent, alice(), state));
        var otherAnswer = call(agent, Map.of("user_name", Map.of("action", "accept", "content", Map.of("name", "Eve"))),
                state);
        var task = McpAgent.result(agent.getTask((String) second.get("taskId")));

        assertThat(first).containsEntry("resultType", "input_required").doesNotContainKey("taskId");
        assertThat(first.get("inputRequests")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsOnlyKeys("user_name");
        assertThat(second).containsEntry("resultType", "task").containsKey("taskId")
                .doesNotContainKeys("requestState", "inputRequests");
        assertThat(replay).as("the final round replayed: the same task").containsEntry("taskId", second.get("taskId"));
        assertThat(otherAnswer.error().code()).as("other answers under the same round: key reuse").isEqualTo(-32602);
        assertThat(task).containsEntry("taskId", second.get("taskId"));
        assertThat(operations()).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT command->'arguments'->>'user_name' FROM operation WHERE subject_id = ?",
                String.class, subject)).isEqualTo("Alice");
    }

    @Test
    void roundTwoOnAnotherNodeOpensTheStateRoundOneGotFromThisOne() {
        String state = (String) McpAgent.result(call(agent, null, null)).get("requestState");

        try (var other = new org.springframework.boot.builder.SpringApplicationBuilder(dev.opledger.OpledgerApplication.class)
                .profiles("test", "conformance")
                .initializers(new dev.opledger.testing.TestDatabaseInitializer())
                .properties("server.port=0", "spring.datasource.hikari.maximum-pool-size=3")
                .run()) {
            int otherPort = ((org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext) other)
                    .getWebServer().getPort();
            var there = new McpAgent(otherPort, TestTokens.forSubject(subject));

            var created = McpAgent.result(call(there, alice(), state));

            assertThat(created).containsEntry("resultType", "task").containsKey("taskId");
            assertThat(operations()).isEqualTo(1);
        }
    }

    @Test
    void aForgedAlteredBorrowedOrMissingRequestStateCreatesNothing() {
        String state = (String) McpAgent.result(call(agent, null, null)).get("requestState");
        var mallory = new McpAgent(port, TestTokens.forSubject("mallory-" + UUID.randomUUID()));
        // on the wire the state is the SDK's envelope (base64url JSON "." tag) around the node's own sealed state
        String body = state.substring(0, state.lastIndexOf('.'));
        String tag = state.substring(state.lastIndexOf('.') + 1);
        String payload = new String(Base64.getUrlDecoder().decode(body), StandardCharsets.UTF_8);
        String longer = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(payload.replace("\"exp\":", "\"exp\":9").getBytes(StandardCharsets.UTF_8));

        var borrowed = call(mallory, alice(), state);
        var altered = call(agent, alice(), longer + "." + tag);
        var forged = call(agent, alice(), Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"keys\":[],\"round\":\"x\"}".getBytes(StandardCharsets.UTF_8)) + ".AAAA");
        var withoutState = McpAgent.result(call(agent, alice(), null));
        var malformed = call(agent, Map.of("user_name", Map.of("action", "accept", "content", Map.of("name", 42))), state);
        var declined = McpAgent.result(call(agent, Map.of("user_name", Map.of("action", "decline")), state));

        assertThat(borrowed.error()).as("another subject's state").isNotNull();
        assertThat(longer).isNotEqualTo(body);
        assertThat(altered.error()).as("an altered state (a longer expiry): %s", altered.result()).isNotNull();
        assertThat(forged.error()).as("a forged state").isNotNull();
        assertThat(java.util.List.of(borrowed.error().code(), altered.error().code(), forged.error().code()))
                .as("invalid params, not an internal error").containsOnly(-32602);
        assertThat(withoutState).as("answers without a state are asked again").containsEntry("resultType", "input_required");
        assertThat(malformed.error().code()).isEqualTo(-32602);
        assertThat(declined).containsEntry("isError", true).doesNotContainKey("taskId");
        assertThat(operations()).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM operation WHERE subject_id LIKE 'mallory-%' AND command_type = ?",
                Long.class, TOOL)).isZero();
    }
}

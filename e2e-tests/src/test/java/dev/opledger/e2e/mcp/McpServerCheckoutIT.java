package dev.opledger.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.mcpserver.McpAgent;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.testing.TestTokens;
import dev.opledger.tools.ReferenceToolsServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An agent runs a real checkout through the node's MCP server with the tasks extension: the
 * node's workers run the graph against the reference tools, and {@code tasks/get} follows the
 * operation to {@code completed} with its representation; a repeated call after the end returns
 * the same task and runs nothing again.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "spring.autoconfigure.exclude=com.vaadin.flow.spring.SpringBootAutoConfiguration,"
                        + "com.vaadin.flow.spring.SpringSecurityAutoConfiguration,com.vaadin.flow.spring.VaadinScopesConfig",
                "opledger.worker.enabled=true",
                "opledger.worker.poll-interval=50ms",
                "opledger.effects.backoff=10ms"})
@ActiveProfiles("test")
@ContextConfiguration(initializers = TestDatabaseInitializer.class)
@DirtiesContext
class McpServerCheckoutIT {

    @DynamicPropertySource
    static void referenceTools(DynamicPropertyRegistry registry) {
        registry.add("opledger.mcp.servers.reference.url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers.reference.timeout", () -> "10s");
    }

    @LocalServerPort
    int port;

    private final ReferenceToolsServer tools = ReferenceToolsFixture.server();

    private List<String> effects(String operationId) {
        return tools.effects().ofOperation(operationId).stream().map(effect -> effect.tool()).toList();
    }

    @Test
    void aTaskFollowsACheckoutToItsEndAndARepeatRunsNothingAgain() {
        var agent = new McpAgent(port, TestTokens.forSubject("mcp-checkout-" + UUID.randomUUID()));
        String operationId = UUID.randomUUID().toString();
        Map<String, Object> arguments = new HashMap<>();
        arguments.put("operationId", operationId);
        arguments.put("sku", "SKU-ESPRESSO");
        arguments.put("quantity", 2);
        arguments.put("amount", 12.50);
        arguments.put("currency", "EUR");
        arguments.put("recipient", "ann@example.com");

        var created = McpAgent.result(agent.callTool("checkout", arguments, true));
        String taskId = (String) created.get("taskId");
        Map<String, Object> done = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> McpAgent.result(agent.getTask(taskId)), task -> !"working".equals(task.get("status")));
        List<String> ran = effects(operationId);
        var repeated = McpAgent.result(agent.callTool("checkout", arguments, true));

        assertThat(created).containsEntry("resultType", "task");
        assertThat(done).containsEntry("status", "completed").containsEntry("resultType", "complete");
        @SuppressWarnings("unchecked")
        var result = (Map<String, Object>) done.get("result");
        assertThat(result).containsEntry("isError", false);
        assertThat(result.get("structuredContent")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("operationId", operationId).containsEntry("status", "SUCCEEDED");
        assertThat(ran).contains("reserve_inventory", "capture_payment").doesNotHaveDuplicates();
        assertThat(repeated).containsEntry("taskId", taskId).containsEntry("status", "completed");
        assertThat(effects(operationId)).isEqualTo(ran);
    }
}

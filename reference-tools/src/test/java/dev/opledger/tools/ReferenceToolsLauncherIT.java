package dev.opledger.tools;

import static dev.opledger.tools.McpClients.call;
import static dev.opledger.tools.McpClients.step;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.opledger.testing.TestDatabase;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/** Started inside another application on the caller's pool, the server keeps to itself. */
class ReferenceToolsLauncherIT {

    @Test
    void runsOnTheCallersPoolWithoutClosingItOrJoiningTheCallersContext() throws Exception {
        var database = TestDatabase.shared();
        try (var pool = new HikariDataSource();
                var caller = new AnnotationConfigApplicationContext()) {
            pool.setJdbcUrl(database.url());
            pool.setUsername(database.username());
            pool.setPassword(database.password());
            caller.registerBean("callerService", String.class, () -> "the caller's");
            caller.refresh();
            String operation = TestServer.newOperationId();

            try (var tools = ReferenceTools.start(0, pool, Map.of("reference-tools.faults.get_product", "fail"))) {
                var client = McpClients.modern(tools.url());
                var sent = call(client, "send_message", step(operation, "hello", "to", "a@b.c", "text", "hi"));
                assertThat(sent.isError()).isNotEqualTo(Boolean.TRUE);
                assertThat(call(client, "get_product", step(operation, "look", "sku", "SKU-MUG")).isError()).isTrue();
                assertThat(tools.effects().ofOperation(operation)).hasSize(1);
                assertThat(tools.url().getPort()).isEqualTo(tools.port()).isNotEqualTo(TestServer.get().port());
            }

            assertThat(pool.isClosed()).isFalse();
            try (var connection = pool.getConnection()) {
                assertThat(connection.isValid(1)).isTrue();
            }
            assertThat(caller.getBeanDefinitionNames()).doesNotContain("mcpEndpoint", "dataSource");
        }
    }
}

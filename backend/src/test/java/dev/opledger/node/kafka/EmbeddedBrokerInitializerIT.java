package dev.opledger.node.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * What {@code ./opledger run} gets in the local profile: with no bootstrap servers set, a real
 * broker inside the node, reachable at the address the node is given, and gone when the node stops.
 */
class EmbeddedBrokerInitializerIT {

    private static GenericApplicationContext node(Map<String, Object> settings) {
        var context = new GenericApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test", settings));
        new EmbeddedBrokerInitializer().initialize(context);
        return context;
    }

    @Test
    void startsABrokerTheNodeCanUseAndStopsItWithTheNode() throws Exception {
        var context = node(Map.of("opledger.events.embedded-broker", "true"));
        context.refresh();
        String servers = context.getEnvironment().getProperty("spring.kafka.bootstrap-servers");
        assertThat(servers).startsWith("127.0.0.1:");
        Map<String, Object> admin = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        try (Admin client = Admin.create(admin)) {
            client.createTopics(List.of(new NewTopic("probe", Optional.of(2), Optional.empty()))).all().get(10, TimeUnit.SECONDS);
            assertThat(client.listTopics().names().get(10, TimeUnit.SECONDS)).contains("probe");
        }

        context.close();

        try (Admin client = Admin.create(admin)) {
            assertThatThrownBy(() -> client.listTopics().names().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
        }
    }

    @Test
    void startsNoBrokerWhenBootstrapServersAreSetOrEventsAreOff() {
        try (var configured = node(Map.of("opledger.events.embedded-broker", "true",
                "spring.kafka.bootstrap-servers", "kafka.example:9092"))) {
            assertThat(configured.getEnvironment().getProperty("spring.kafka.bootstrap-servers")).isEqualTo("kafka.example:9092");
            assertThat(configured.getBeanFactory().containsSingleton("opledgerEmbeddedKafkaBroker")).isFalse();
        }
        try (var off = node(Map.of("opledger.events.embedded-broker", "true", "opledger.events.enabled", "false"))) {
            assertThat(off.getEnvironment().getProperty("spring.kafka.bootstrap-servers")).isNull();
        }
        try (var notEmbedded = node(Map.of())) {
            assertThat(notEmbedded.getEnvironment().getProperty("spring.kafka.bootstrap-servers")).isNull();
        }
    }
}

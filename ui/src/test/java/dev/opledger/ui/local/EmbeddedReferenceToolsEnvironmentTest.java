package dev.opledger.ui.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

class EmbeddedReferenceToolsEnvironmentTest {

    private final EmbeddedReferenceToolsEnvironment processor = new EmbeddedReferenceToolsEnvironment();

    private MockEnvironment processed(MockEnvironment environment) {
        processor.postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void registersTheEmbeddedServerOnItsPortAsTheReferenceServer() {
        var environment = processed(new MockEnvironment().withProperty("opledger.reference-tools.embedded", "true"));

        assertThat(environment.getProperty("opledger.mcp.servers.reference.url")).isEqualTo("http://127.0.0.1:8091/mcp");
        assertThat(environment.getProperty("opledger.reference-tools.port")).isEqualTo("8091");
    }

    @Test
    void portZeroPicksAFreePortBeforeTheServerStartsSoTheUrlIsKnown() {
        var environment = processed(new MockEnvironment().withProperty("opledger.reference-tools.embedded", "true")
                .withProperty("opledger.reference-tools.port", "0"));

        int port = environment.getProperty("opledger.reference-tools.port", Integer.class);
        assertThat(port).isPositive();
        assertThat(environment.getProperty("opledger.mcp.servers.reference.url"))
                .isEqualTo("http://127.0.0.1:" + port + "/mcp");
    }

    @Test
    void anotherUrlForTheReferenceServerContradictsEmbeddingIt() {
        var environment = new MockEnvironment().withProperty("opledger.reference-tools.embedded", "true")
                .withProperty("opledger.mcp.servers.reference.url", "http://tools.example:9000/mcp");

        assertThatThrownBy(() -> processed(environment)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("opledger.reference-tools.embedded=false");
    }

    @Test
    void withoutEmbeddingItChangesNothing() {
        var environment = processed(new MockEnvironment()
                .withProperty("opledger.mcp.servers.reference.url", "http://tools.example:9000/mcp"));

        assertThat(environment.getProperty("opledger.mcp.servers.reference.url")).isEqualTo("http://tools.example:9000/mcp");
        assertThat(environment.containsProperty("opledger.reference-tools.port")).isFalse();
    }
}

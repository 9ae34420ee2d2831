package dev.opledger.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** opledger.mcp.servers binds as configuration says, and refuses what cannot work. */
class McpPropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(McpProperties.class)
    @Import(McpProtocolConverter.class)
    static class Binding {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(Binding.class);

    @Test
    void bindsHttpAndStdioServers() {
        runner.withPropertyValues(
                        "opledger.mcp.servers.shop.url=http://127.0.0.1:8091/mcp",
                        "opledger.mcp.servers.shop.protocol=2026-07-28",
                        "opledger.mcp.servers.shop.timeout=5s",
                        "opledger.mcp.servers.shop.headers[X-Reference-Tools-Fault]=send_message=fail",
                        "opledger.mcp.servers.files.command=npx",
                        "opledger.mcp.servers.files.args=-y,@modelcontextprotocol/server-filesystem@2026.8.31,/srv",
                        "opledger.mcp.servers.files.protocol=2025-11-25")
                .run(context -> {
                    var servers = context.getBean(McpProperties.class).servers();
                    assertThat(servers.get("shop")).isEqualTo(McpProperties.Server.http(
                            URI.create("http://127.0.0.1:8091/mcp"), McpProtocol.MODERN, Duration.ofSeconds(5),
                            Map.of("X-Reference-Tools-Fault", "send_message=fail")));
                    assertThat(servers.get("files")).isEqualTo(McpProperties.Server.stdio("npx",
                            List.of("-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/srv"),
                            McpProtocol.CLASSIC, Duration.ofSeconds(30)));
                });
    }

    @Test
    void probesAndWaitsThirtySecondsByDefault() {
        runner.withPropertyValues("opledger.mcp.servers.shop.url=http://127.0.0.1:8091/mcp").run(context -> {
            var shop = context.getBean(McpProperties.class).servers().get("shop");
            assertThat(shop.protocol()).isEqualTo(McpProtocol.AUTO);
            assertThat(shop.timeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(shop.headers()).isEmpty();
        });
    }

    @Test
    void noServersIsFine() {
        runner.run(context -> assertThat(context.getBean(McpProperties.class).servers()).isEmpty());
    }

    @Test
    void refusesAServerWithBothAUrlAndACommand() {
        runner.withPropertyValues("opledger.mcp.servers.shop.url=http://127.0.0.1:8091/mcp",
                        "opledger.mcp.servers.shop.command=npx")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("either a url (streamable HTTP) or a command (stdio)"));
    }

    @Test
    void refusesAServerWithNeither() {
        runner.withPropertyValues("opledger.mcp.servers.shop.timeout=5s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("either a url (streamable HTTP) or a command (stdio)"));
    }

    @Test
    void refusesAnUnknownProtocol() {
        runner.withPropertyValues("opledger.mcp.servers.shop.url=http://127.0.0.1:8091/mcp",
                        "opledger.mcp.servers.shop.protocol=2024-11-05")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("unknown MCP protocol '2024-11-05': use one of auto, 2026-07-28, 2025-11-25"));
    }

    @Test
    void refusesHeadersForAProcess() {
        runner.withPropertyValues("opledger.mcp.servers.files.command=npx",
                        "opledger.mcp.servers.files.headers.x-test=1")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("headers apply to HTTP servers only"));
    }

    @Test
    void aLocationNeverShowsCredentialsOfTheUrl() {
        var server = McpProperties.Server.http(URI.create("https://user:secret@tools.example:8443/mcp?key=secret"),
                McpProtocol.AUTO, Duration.ofSeconds(1), Map.of());

        assertThat(server.location()).isEqualTo("https://tools.example:8443/mcp");
    }
}

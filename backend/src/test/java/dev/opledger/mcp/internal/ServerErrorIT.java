package dev.opledger.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolTransportException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A server answering HTTP 503 to everything: in every revision, and for auto, the outcome is unknown. */
class ServerErrorIT {

    private static HttpServer http;
    private static URI url;

    @BeforeAll
    static void startAFailingServer() throws Exception {
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/mcp", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "down for maintenance".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(503, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        url = URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/mcp");
    }

    @AfterAll
    static void stop() {
        http.stop(0);
    }

    @ParameterizedTest
    @EnumSource(McpProtocol.class)
    void anHttpServerErrorIsATransportFailure(McpProtocol protocol) {
        try (var client = new McpToolClient(new McpProperties(Map.of("shop",
                McpProperties.Server.http(url, protocol, Duration.ofSeconds(5), Map.of()))))) {

            assertThatThrownBy(() -> client.call(new ToolRef("shop", "reserve_inventory"), Map.of("sku", "A-1")))
                    .isInstanceOf(ToolTransportException.class)
                    .hasMessageContaining("503");
            assertThat(client.protocol("shop")).isEqualTo(protocol == McpProtocol.AUTO
                    ? Optional.empty() : Optional.of(protocol));
        }
    }
}

package dev.opledger.e2e.mcp;

import static dev.opledger.e2e.mcp.ReferenceToolsFixture.newOperationId;
import static dev.opledger.e2e.mcp.ReferenceToolsFixture.properties;
import static dev.opledger.e2e.mcp.ReferenceToolsFixture.settings;
import static dev.opledger.e2e.mcp.ReferenceToolsFixture.step;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.mcp.internal.McpProperties;
import dev.opledger.mcp.internal.McpProtocol;
import dev.opledger.mcp.internal.McpToolClient;
import dev.opledger.tools.ReferenceToolsServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The MCP client against the reference tool server over real SDK transports, each case in both
 * revisions (forced with {@code protocol}); faults are injected per request with the
 * {@code X-Reference-Tools-Fault} header set in the client's {@code headers}.
 */
class McpToolClientIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final ReferenceToolsServer server = ReferenceToolsFixture.server();
    private final String operation = newOperationId();
    private final List<McpToolClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(McpToolClient::close);
    }

    private McpToolClient client(McpProperties.Server settings) {
        var client = new McpToolClient(properties("tools", settings));
        clients.add(client);
        return client;
    }

    private static ToolRef tool(String name) {
        return new ToolRef("tools", name);
    }

    @ParameterizedTest
    @EnumSource(names = {"MODERN", "CLASSIC"})
    void aSuccessfulCallAnswersTheStructuredContent(McpProtocol protocol) throws Exception {
        var client = client(settings(protocol, TIMEOUT));

        ToolReply reply = client.call(tool("reserve_inventory"), step(operation, "reserve", "sku", "SKU-ESPRESSO",
                "quantity", 2, "idempotencyKey", operation + ":reserve"));

        assertThat(reply.error()).isFalse();
        assertThat(reply.content()).containsEntry("sku", "SKU-ESPRESSO").containsEntry("quantity", 2)
                .containsEntry("replayed", false).containsKey("reservationId");
        assertThat(reply.text()).isNotBlank();
        assertThat(server.effects().count("reserve_inventory", operation, "reserve")).isEqualTo(1);
        assertThat(client.protocol("tools")).contains(protocol);
    }

    @ParameterizedTest
    @EnumSource(names = {"MODERN", "CLASSIC"})
    void aToolsOwnErrorIsAReplyNotAnException(McpProtocol protocol) throws Exception {
        var client = client(settings(protocol, TIMEOUT));

        ToolReply unknown = client.call(tool("get_product"), step(operation, "look", "sku", "SKU-NONE"));
        ToolReply injected = client(settings(protocol, TIMEOUT, "send_message=fail"))
                .call(tool("send_message"), step(operation, "notify", "to", "ada@example.org", "text", "Hello"));

        assertThat(unknown.error()).isTrue();
        assertThat(unknown.content()).containsEntry("error", "UNKNOWN_SKU");
        assertThat(unknown.text()).contains("SKU-NONE");
        assertThat(injected.error()).isTrue();
        assertThat(injected.content()).containsEntry("error", "INJECTED_FAILURE");
        assertThat(server.effects().ofOperation(operation)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(names = {"MODERN", "CLASSIC"})
    void hintsAreTheAnnotationsTheServerDeclares(McpProtocol protocol) {
        var client = client(settings(protocol, TIMEOUT));

        //                                                          readOnly idempotent destructive openWorld
        assertThat(client.hints(tool("get_points"))).contains(new ToolHints(true, true, false, false));
        assertThat(client.hints(tool("get_product"))).contains(new ToolHints(true, true, false, false));
        assertThat(client.hints(tool("set_shipping_address"))).contains(new ToolHints(false, true, true, false));
        assertThat(client.hints(tool("reserve_inventory"))).contains(new ToolHints(false, false, false, false));
        assertThat(client.hints(tool("send_message"))).contains(new ToolHints(false, false, false, false));
        assertThat(client.hints(tool("no_such_tool"))).isEmpty();
        assertThat(client.hints(new ToolRef("not-configured", "send_message"))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(names = {"MODERN", "CLASSIC"})
    void aLostResponseIsATransportFailureAndTheKeyedRepeatFindsTheCommittedEffect(McpProtocol protocol)
            throws Exception {
        var arguments = step(operation, "reserve", "sku", "SKU-GRINDER", "quantity", 1,
                "idempotencyKey", operation + ":reserve");
        var dropping = client(settings(protocol, TIMEOUT, "reserve_inventory=drop-response"));

        assertThatThrownBy(() -> dropping.call(tool("reserve_inventory"), arguments))
                .isInstanceOf(ToolTransportException.class)
                .hasMessageContaining("tools/reserve_inventory").hasMessageContaining("response was lost")
                .hasMessageContaining("may or may not have run");
        assertThat(server.effects().count("reserve_inventory", operation, "reserve")).isEqualTo(1);

        ToolReply repeat = client(settings(protocol, TIMEOUT)).call(tool("reserve_inventory"), arguments);

        assertThat(repeat.error()).isFalse();
        assertThat(repeat.content()).containsEntry("replayed", true);
        assertThat(server.effects().ofOperation(operation)).singleElement()
                .satisfies(effect -> assertThat(effect.resultId()).isEqualTo(repeat.content().get("reservationId")));
    }

    @ParameterizedTest
    @EnumSource(names = {"MODERN", "CLASSIC"})
    void anAnswerLaterThanTheTimeoutIsATransportFailureWhileTheEffectStillLands(McpProtocol protocol) {
        var client = client(settings(protocol, Duration.ofSeconds(1), "send_message=delay:2500"));

        long started = System.nanoTime();
        assertThatThrownBy(() -> client.call(tool("send_message"),
                step(operation, "notify", "to", "ada@example.org", "text", "Hello")))
                .isInstanceOf(ToolTransportException.class)
                .hasMessageContaining("no answer within 1000 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2400));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> server.effects().count("send_message", operation, "notify") == 1);
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "MODERN", "CLASSIC"})
    void aServerThatIsDownIsATransportFailure(McpProtocol protocol) throws Exception {
        var client = client(McpProperties.Server.http(ReferenceToolsFixture.nobodyListening(), protocol, TIMEOUT,
                Map.of()));

        assertThatThrownBy(() -> client.call(tool("send_message"),
                step(operation, "notify", "to", "ada@example.org", "text", "Hello")))
                .isInstanceOf(ToolTransportException.class)
                .hasMessageContaining("cannot connect");
        assertThat(client.hints(tool("send_message"))).isEmpty();
        assertThat(client.protocol("tools")).isEqualTo(
                protocol == McpProtocol.AUTO ? Optional.empty() : Optional.of(protocol));
    }

    @Test
    void autoPicksTheModernRevisionForTheReferenceTools() throws Exception {
        var client = client(settings(McpProtocol.AUTO, TIMEOUT));

        assertThat(client.protocol("tools")).isEmpty();
        ToolReply reply = client.call(tool("get_product"), step(operation, "look", "sku", "SKU-MUG"));

        assertThat(reply.content()).containsEntry("sku", "SKU-MUG");
        assertThat(client.protocol("tools")).contains(McpProtocol.MODERN);
    }

    @Test
    void anUnknownServerIsAConfigurationError() {
        var client = client(settings(McpProtocol.AUTO, TIMEOUT));

        assertThatThrownBy(() -> client.call(new ToolRef("not-configured", "get_product"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("opledger.mcp.servers.not-configured");
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "CLASSIC"})
    void concurrentVirtualThreadsShareOneClient(McpProtocol protocol) throws Exception {
        var client = client(settings(protocol, TIMEOUT));
        List<Callable<ToolReply>> calls = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            String stepKey = "look-" + i;
            calls.add(() -> client.call(tool("get_product"), step(operation, stepKey, "sku", "SKU-ESPRESSO")));
        }

        List<ToolReply> replies = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Future<ToolReply> reply : threads.invokeAll(calls)) {
                replies.add(reply.get());
            }
        }

        assertThat(replies).hasSize(24).allSatisfy(reply -> {
            assertThat(reply.error()).isFalse();
            assertThat(reply.content()).containsEntry("sku", "SKU-ESPRESSO");
        });
    }
}

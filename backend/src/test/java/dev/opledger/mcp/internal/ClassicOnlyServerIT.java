package dev.opledger.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code auto} against a streamable HTTP server that speaks only 2025-11-25 (the SDK's classic
 * server on an embedded Tomcat): the {@code server/discover} probe is refused, so the client
 * initializes instead and remembers that. Its tool answers text only, a JSON object.
 */
class ClassicOnlyServerIT {

    private static Tomcat tomcat;
    private static McpSyncServer server;
    private static URI url;
    private static final AtomicReference<Map<String, Object>> lastMeta = new AtomicReference<>();

    private McpToolClient client;

    @BeforeAll
    static void startAClassicOnlyServer() throws Exception {
        var transport = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp").build();
        server = McpServer.sync(transport)
                .serverInfo("classic-only", "1")
                .capabilities(ServerCapabilities.builder().tools(false).build())
                .tools(SyncToolSpecification.builder()
                        .tool(Tool.builder().name("lookup")
                                .inputSchema(McpJsonDefaults.getMapper(),
                                        "{\"type\":\"object\",\"properties\":{\"sku\":{\"type\":\"string\"}}}")
                                .annotations(new ToolAnnotations("Look up", true, false, true, false, null))
                                .build())
                        .callHandler((exchange, request) -> {
                            lastMeta.set(request.meta() == null ? Map.of() : request.meta());
                            return CallToolResult.builder()
                                    .addTextContent("{\"sku\":\"" + request.arguments().get("sku") + "\",\"onHand\":3}")
                                    .isError(false).build();
                        })
                        .build())
                .build();
        tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("classic-only-tomcat").toString());
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "mcp", transport).setAsyncSupported(true);
        context.addServletMappingDecoded("/mcp", "mcp");
        tomcat.start();
        url = URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/mcp");
    }

    @AfterAll
    static void stop() throws Exception {
        server.closeGracefully();
        tomcat.stop();
        tomcat.destroy();
    }

    @AfterEach
    void closeClient() {
        client.close();
    }

    private McpToolClient client(McpProtocol protocol) {
        client = new McpToolClient(new McpProperties(Map.of("shop",
                McpProperties.Server.http(url, protocol, Duration.ofSeconds(10), Map.of()))));
        return client;
    }

    @Test
    void aCallInsideASpanCarriesItsW3cTraceContextInTheRequestMeta() throws Exception {
        var tracing = brave.Tracing.newBuilder().traceId128Bit(true)
                .propagationFactory(brave.propagation.tracecontext.TraceContextPropagation.newFactoryBuilder().build())
                .build();
        try (tracing) {
            var tracer = new io.micrometer.tracing.brave.bridge.BraveTracer(tracing.tracer(),
                    new io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext(tracing.currentTraceContext()));
            var spans = new dev.opledger.operation.OperationSpans(tracer,
                    new io.micrometer.tracing.brave.bridge.BravePropagator(tracing));
            client = new McpToolClient(new McpProperties(Map.of("shop",
                    McpProperties.Server.http(url, McpProtocol.AUTO, Duration.ofSeconds(10), Map.of()))), spans);
            var operationId = dev.opledger.operation.OperationId.random();
            String traceId;
            String spanId;
            try (var ignored = spans.start("opledger.run", operationId)) {
                traceId = tracer.currentSpan().context().traceId();
                spanId = tracer.currentSpan().context().spanId();
                client.call(new ToolRef("shop", "lookup"), Map.of("sku", "SKU-MUG", "operationId", operationId.toString()));
            }
            assertThat(lastMeta.get()).containsEntry(McpToolClient.OPERATION_META, operationId.toString());
            assertThat(String.valueOf(lastMeta.get().get("traceparent")))
                    .as("SEP-414: W3C traceparent in _meta").matches("00-" + traceId + "-" + spanId + "-0[01]");

            client.call(new ToolRef("shop", "lookup"), Map.of("sku", "SKU-MUG"));
            assertThat(lastMeta.get()).as("outside a span there is no context to send").doesNotContainKey("traceparent");
        }
    }

    @Test
    void autoFallsBackToInitializeAndParsesAJsonTextAnswer() throws Exception {
        var client = client(McpProtocol.AUTO);

        ToolReply reply = client.call(new ToolRef("shop", "lookup"), Map.of("sku", "SKU-MUG"));
        ToolReply again = client.call(new ToolRef("shop", "lookup"), Map.of("sku", "SKU-MUG"));

        assertThat(reply.error()).isFalse();
        assertThat(reply.content()).containsEntry("sku", "SKU-MUG").containsEntry("onHand", 3);
        assertThat(again).isEqualTo(reply);
        assertThat(client.protocol("shop")).contains(McpProtocol.CLASSIC);
    }

    @Test
    void hintsComeFromTheClassicListing() {
        assertThat(client(McpProtocol.AUTO).hints(new ToolRef("shop", "lookup")))
                .contains(new ToolHints(true, true, false, false));
    }

    @Test
    void forcingTheModernRevisionOnItLeavesEveryCallUnanswered() {
        var client = client(McpProtocol.MODERN);

        assertThatThrownBy(() -> client.call(new ToolRef("shop", "lookup"), Map.of("sku", "SKU-MUG")))
                .isInstanceOf(ToolTransportException.class)
                .hasMessageContaining("MCP 2026-07-28");
    }

    /**
     * A handle stored while a server spoke 2026-07-28, read after it came back on 2025-11-25: the
     * answers are typed (an unknown task, a refused cancel), nothing is sent, and the connection
     * stays (no transport failure that would replace it or leave the outcome "may or may not").
     */
    @Test
    void aTaskOnARevisionWithoutTasksIsUnknownAndItsCancelRefusedWithoutATransportFailure() throws Exception {
        var client = client(McpProtocol.CLASSIC);
        var shop = new ToolRef("shop", "lookup");
        client.call(shop, Map.of("sku", "SKU-MUG"));

        assertThat(client.task(shop, "task-from-before")).isInstanceOfSatisfying(TaskState.NotFound.class,
                notFound -> assertThat(notFound.message()).contains("2025-11-25").contains("task-from-before"));
        assertThat(client.cancelTask(shop, "task-from-before")).isEqualTo(TaskCancellation.REFUSED);
        assertThat(client.protocol("shop")).contains(McpProtocol.CLASSIC);
        assertThat(client.call(shop, Map.of("sku", "SKU-MUG")).error()).isFalse();
    }

    @Test
    void theOperationIdAndStepKeyGoAlongAsRequestMeta() throws Exception {
        client(McpProtocol.CLASSIC).call(new ToolRef("shop", "lookup"),
                Map.of("sku", "SKU-MUG", "operationId", "op-1", "stepKey", "look"));

        assertThat(lastMeta.get()).containsEntry("dev.opledger/operationId", "op-1")
                .containsEntry("dev.opledger/stepKey", "look");
    }
}

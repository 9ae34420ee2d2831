package dev.opledger.e2e.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.OpledgerApplication;
import dev.opledger.e2e.mcp.ReferenceToolsFixture;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.EventSchema;
import dev.opledger.testing.TestDatabaseInitializer;
import dev.opledger.testing.TestKafkaInitializer;
import dev.opledger.testing.TestTokens;
import dev.opledger.testing.TopicReader;
import dev.opledger.tools.ReferenceToolsServer;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real checkout (the node's workers, its graph, the reference tools over MCP) yields exactly
 * its expected events on the topic of a real broker, in order and once, each valid against the
 * published schema, read as a consumer would (read_committed), and applied once by the node's
 * activity feed; a retried submission adds none.
 */
@SpringBootTest(classes = OpledgerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "spring.autoconfigure.exclude=com.vaadin.flow.spring.SpringBootAutoConfiguration,"
                        + "com.vaadin.flow.spring.SpringSecurityAutoConfiguration,com.vaadin.flow.spring.VaadinScopesConfig",
                "opledger.worker.enabled=true",
                "opledger.worker.poll-interval=50ms",
                "opledger.effects.backoff=10ms"})
@ActiveProfiles("test")
@ContextConfiguration(initializers = {TestDatabaseInitializer.class, TestKafkaInitializer.class})
@DirtiesContext
class CheckoutEventsIT {

    private static final String TOPIC = "opledger.operation-events";
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    private static final Set<String> AT_REST = Set.of("SUCCEEDED", "FAILED", "NEEDS_REVIEW", "AWAITING_APPROVAL");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @DynamicPropertySource
    static void referenceTools(DynamicPropertyRegistry registry) {
        registry.add("opledger.mcp.servers.reference.url", () -> ReferenceToolsFixture.server().url().toString());
        registry.add("opledger.mcp.servers.reference.timeout", () -> "10s");
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    private final ReferenceToolsServer tools = ReferenceToolsFixture.server();
    private final String token = TestTokens.forSubject("checkout-events-" + UUID.randomUUID());

    @AfterEach
    void clearFaults() {
        tools.faults().clear();
    }

    private int send(UUID operationId, String arguments) {
        return ApiClient.onPort(port).submit(token, operationId.toString(), ApiClient.command("checkout", arguments))
                .statusCode();
    }

    private UUID checkout(String arguments) {
        UUID operationId = UUID.randomUUID();
        assertThat(send(operationId, arguments)).isEqualTo(202);
        await("operation " + operationId + " at rest").atMost(RUN_TIMEOUT).until(() -> AT_REST.contains(
                jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class, operationId)));
        await("events of " + operationId + " published").atMost(RUN_TIMEOUT).until(() -> jdbc.queryForObject(
                "SELECT count(*) = count(published_at) FROM outbox_event WHERE operation_id = ?", Boolean.class, operationId));
        return operationId;
    }

    /** The operation's events on the topic, each checked against the schema and its CloudEvents id. */
    private static List<JsonNode> events(UUID operationId) {
        List<ConsumerRecord<String, byte[]>> records = TopicReader.readAll(TOPIC).stream()
                .filter(record -> record.key().equals(operationId.toString())).toList();
        return records.stream().map(record -> {
            JsonNode event = JSON.readTree(record.value());
            assertThat(EventSchema.errors(event)).as(event.toString()).isEmpty();
            assertThat(new String(record.headers().lastHeader("ce_id").value(), StandardCharsets.UTF_8))
                    .isEqualTo(event.get("eventId").asString());
            return event;
        }).toList();
    }

    private static List<String> described(List<JsonNode> events) {
        return events.stream().map(event -> event.get("type").asString()
                + (event.get("stepKey").isNull() ? "" : " " + event.get("stepKey").asString() + "#" + event.get("attempt").asInt()))
                .toList();
    }

    private static void assertGaplessOnce(List<JsonNode> events) {
        assertThat(events).extracting(event -> event.get("sequence").asInt())
                .containsExactlyElementsOf(IntStream.rangeClosed(1, events.size()).boxed().toList());
        assertThat(events).extracting(event -> event.get("eventId").asString()).doesNotHaveDuplicates();
    }

    private static String full(String amount) {
        return "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":2,\"amount\":" + amount + ",\"currency\":\"EUR\","
                + "\"recipient\":\"ann@example.com\",\"loyaltyAccount\":\"ann-" + UUID.randomUUID() + "\","
                + "\"shippingAddress\":\"1 Main St\"}";
    }

    @Test
    void aCheckoutPublishesEachStateChangeOnceInOrderAndARetryPublishesNothing() {
        String arguments = full("49.90");
        UUID operation = checkout(arguments);

        assertThat(send(operation, arguments)).as("the retry is a replay").isEqualTo(200);
        checkout(full("12.00")); // published after the retry: anything the retry wrote would be out by now

        List<JsonNode> events = events(operation);
        assertThat(described(events)).containsExactly("OperationAccepted", "OperationRunning",
                "AgentToolStarted reserve#1", "AgentToolCompleted reserve#1",
                "AgentToolStarted capture#1", "AgentToolCompleted capture#1",
                "AgentToolStarted points#1", "AgentToolCompleted points#1",
                "AgentToolStarted shipping#1", "AgentToolCompleted shipping#1",
                "AgentToolStarted receipt#1", "AgentToolCompleted receipt#1",
                "OperationSucceeded");
        assertGaplessOnce(events);
        assertThat(events.get(2).get("tool").asString()).isEqualTo("reserve_inventory");
        assertThat(events.getLast().get("status").asString()).isEqualTo("SUCCEEDED");
        // the node's own consumer, the activity feed, applied each event once
        await("the feed of " + operation).atMost(RUN_TIMEOUT).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM activity_feed_entry WHERE operation_id = ?", Long.class, operation) >= 13);
        assertThat(jdbc.queryForList("SELECT sequence FROM activity_feed_entry WHERE operation_id = ? ORDER BY sequence",
                Integer.class, operation)).containsExactlyElementsOf(IntStream.rangeClosed(1, 13).boxed().toList());
    }

    @Test
    void aCheckoutsEventsCarryTheTraceOfTheRequestOrRunThatWroteThem() {
        UUID operation = UUID.randomUUID();
        String requestTrace = UUID.randomUUID().toString().replace("-", "");
        var api = ApiClient.onPort(port);
        assertThat(api.send(api.request("/v1/operations", token, Map.of("Idempotency-Key", operation.toString(),
                "Content-Type", "application/json", "traceparent", "00-" + requestTrace + "-00f067aa0ba902b7-01"))
                .POST(HttpRequest.BodyPublishers.ofString(ApiClient.command("checkout", full("49.90")))).build())
                .statusCode()).isEqualTo(202);
        await("events of " + operation + " published").atMost(RUN_TIMEOUT).until(() -> jdbc.queryForObject(
                "SELECT count(*) = count(published_at) AND bool_or(type = 'OperationSucceeded') FROM outbox_event "
                        + "WHERE operation_id = ?", Boolean.class, operation));

        List<String[]> traces = TopicReader.readAll(TOPIC).stream().filter(record -> record.key().equals(operation.toString()))
                .map(record -> new String[] {header(record, "ce_type"), header(record, "traceparent").split("-")[1]})
                .toList();

        assertThat(traces).hasSize(13);
        assertThat(traces.getFirst()).containsExactly("dev.opledger.OperationAccepted", requestTrace);
        // the worker's run (its opledger.run span) wrote the tool events and the end: one trace, not the request's
        String runTrace = traces.getLast()[1];
        assertThat(traces.subList(2, 13)).allSatisfy(trace -> assertThat(trace[1]).as(trace[0]).isEqualTo(runTrace));
        assertThat(runTrace).isNotEqualTo(requestTrace);
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void aCallWhoseAnswerWasLostHasAStartedEventPerAttemptAndOneOutcome() {
        tools.faults().inject("capture_payment", "drop-response*1");

        UUID operation = checkout(full("49.90"));

        List<JsonNode> events = events(operation);
        assertThat(described(events)).filteredOn(event -> event.endsWith("capture#1") || event.endsWith("capture#2"))
                .containsExactly("AgentToolStarted capture#1", "AgentToolStarted capture#2", "AgentToolCompleted capture#2");
        assertThat(described(events).getLast()).isEqualTo("OperationSucceeded");
        assertGaplessOnce(events);
    }

    @Test
    void aLostReceiptEndsInNeedsReviewWithItsReason() {
        tools.faults().inject("send_message", "drop-response*1");

        UUID operation = checkout(full("49.90"));

        List<JsonNode> events = events(operation);
        assertThat(described(events)).endsWith("AgentToolStarted receipt#1", "OperationNeedsReview");
        assertThat(events.getLast().get("reason").asString()).contains("never-repeat tool reference/send_message");
        assertGaplessOnce(events);
    }
}

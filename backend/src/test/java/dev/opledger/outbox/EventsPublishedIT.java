package dev.opledger.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.TestGateways;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelService;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.EventSchema;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.TestKafka;
import dev.opledger.testing.TestTokens;
import dev.opledger.testing.TopicReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's state changes reach the topic as events, each once, in order, read as a consumer would
 * (read_committed) from the real broker; a replayed submission publishes nothing.
 */
@EventsIntegrationTest
class EventsPublishedIT {

    static final String TOPIC = "opledger.operation-events";
    private static final List<String> STEPS = List.of("reserve", "capture", "receipt");

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext node;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    JsonMapper json;

    @Autowired
    CancelService cancels;

    String subject;
    String token;

    @BeforeEach
    void setUp() {
        subject = "events-" + UUID.randomUUID();
        token = TestTokens.forSubject(subject);
    }

    private OperationId submit() {
        var operationId = OperationId.random();
        assertThat(ApiClient.onPort(port).submit(token, operationId.toString(), Checkout.command(1, "10.00")).statusCode())
                .isEqualTo(202);
        return operationId;
    }

    private void awaitPublished(OperationId operationId) {
        await("events of " + operationId + " published").atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.queryForObject("SELECT count(*) = count(published_at) AND count(*) > 0 FROM outbox_event "
                        + "WHERE operation_id = ?", Boolean.class, operationId.value()));
    }

    static List<ConsumerRecord<String, byte[]>> recordsOf(OperationId operationId) {
        return TopicReader.readAll(TOPIC).stream().filter(record -> record.key().equals(operationId.toString())).toList();
    }

    private JsonNode value(ConsumerRecord<String, byte[]> record) {
        return json.readTree(record.value());
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Test
    void theNodeCreatedTheTopicWithItsPartitions() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestKafka.shared().bootstrapServers()))) {
            await().atMost(Duration.ofSeconds(20)).until(() -> admin.listTopics().names().get().contains(TOPIC));
            assertThat(admin.describeTopics(List.of(TOPIC)).allTopicNames().get(10, TimeUnit.SECONDS).get(TOPIC)
                    .partitions()).hasSize(6);
        }
    }

    @Test
    void aRunsStateChangesArePublishedOnceInOrderWithTheirCloudEventsHeaders() {
        OperationId operationId = submit();
        LeasedOperation leased = lifecycle.lease("events-node", 1000, Duration.ofSeconds(30)).stream()
                .filter(o -> o.operationId().equals(operationId)).findFirst().orElseThrow();
        EffectGateway gateway = TestGateways.over(node, new Answering());
        for (String step : STEPS) {
            assertThat(gateway.perform(new Effect(leased.fence(), step, new ToolRef("shop", step + "_tool"),
                    Map.of(), null))).isInstanceOf(EffectOutcome.Done.class);
        }
        assertThat(lifecycle.finishRun(leased.fence(), "events-node", OperationStatus.SUCCEEDED, null)).isTrue();
        awaitPublished(operationId);

        List<ConsumerRecord<String, byte[]>> records = recordsOf(operationId);

        assertThat(records).extracting(record -> value(record).get("type").asString() + " "
                        + Optional.ofNullable(value(record).get("stepKey")).filter(n -> !n.isNull()).map(JsonNode::asString)
                        .orElse("-"))
                .containsExactly("OperationAccepted -", "OperationRunning -",
                        "AgentToolStarted reserve", "AgentToolCompleted reserve",
                        "AgentToolStarted capture", "AgentToolCompleted capture",
                        "AgentToolStarted receipt", "AgentToolCompleted receipt",
                        "OperationSucceeded -");
        assertThat(records).extracting(record -> value(record).get("sequence").asInt())
                .containsExactlyElementsOf(IntStream.rangeClosed(1, 9).boxed().toList());
        assertThat(records).extracting(ConsumerRecord::partition).containsOnly(records.getFirst().partition());
        assertThat(records).allSatisfy(record -> {
            JsonNode event = value(record);
            assertThat(header(record, "ce_specversion")).isEqualTo("1.0");
            assertThat(header(record, "ce_id")).isEqualTo(event.get("eventId").asString());
            assertThat(header(record, "ce_type")).isEqualTo("dev.opledger." + event.get("type").asString());
            assertThat(header(record, "ce_source")).isEqualTo("/opledger/ledger");
            assertThat(header(record, "ce_subject")).isEqualTo(operationId.toString());
            assertThat(header(record, "ce_time")).isEqualTo(event.get("occurredAt").asString());
            assertThat(header(record, "content-type")).isEqualTo("application/json");
            assertThat(event.get("operationId").asString()).isEqualTo(operationId.toString());
            assertThat(EventSchema.errors(event)).as(event.toString()).isEmpty();
        });
        assertThat(records).extracting(record -> header(record, "ce_id")).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(jdbc.queryForList("SELECT event_id::text FROM outbox_event "
                        + "WHERE operation_id = ?", String.class, operationId.value()));
    }

    @Test
    void aCancelsEventsArePublishedInOrderAndMatchTheSchema() {
        OperationId accepted = submit();
        OperationId running = submit();
        SubjectId owner = new SubjectId(subject);
        assertThat(cancels.cancelOwn(owner, accepted, CancelChannel.REST)).isInstanceOf(CancelOutcome.Resolved.class);
        LeasedOperation leased = lifecycle.lease("events-node", 1000, Duration.ofSeconds(30)).stream()
                .filter(o -> o.operationId().equals(running)).findFirst().orElseThrow();
        // the cancel comes while the capture's call is in flight: it lands anyway, the receipt is never called
        ToolClient cancellingDuringTheCall = new Answering() {
            @Override
            public ToolReply call(ToolRef tool, Map<String, Object> arguments) {
                cancels.cancelOwn(owner, running, CancelChannel.MCP);
                return super.call(tool, arguments);
            }
        };
        EffectGateway gateway = TestGateways.over(node, cancellingDuringTheCall);
        assertThat(gateway.perform(new Effect(leased.fence(), "capture", new ToolRef("shop", "capture_tool"), Map.of(),
                null))).isInstanceOf(EffectOutcome.Done.class);
        assertThat(gateway.perform(new Effect(leased.fence(), "receipt", new ToolRef("shop", "receipt_tool"), Map.of(),
                null))).isInstanceOf(EffectOutcome.CancelRequested.class);
        assertThat(lifecycle.finishRun(leased.fence(), "events-node", OperationStatus.CANCELLED, "cancelled")).isTrue();
        awaitPublished(accepted);
        awaitPublished(running);

        assertThat(recordsOf(accepted)).extracting(record -> value(record).get("type").asString())
                .containsExactly("OperationAccepted", "CancelRequested", "CancelAcknowledged", "OperationCancelled");
        assertThat(recordsOf(running)).extracting(record -> value(record).get("type").asString())
                .containsExactly("OperationAccepted", "OperationRunning", "AgentToolStarted", "CancelRequested",
                        "AgentToolCompleted", "CancelAcknowledged", "CancelEffectCommitted", "OperationCancelled");
        for (OperationId operationId : List.of(accepted, running)) {
            assertThat(recordsOf(operationId)).allSatisfy(record -> assertThat(EventSchema.errors(value(record)))
                    .as(value(record).toString()).isEmpty());
        }
        JsonNode committed = recordsOf(running).stream().map(this::value)
                .filter(event -> event.get("type").asString().equals("CancelEffectCommitted")).findFirst().orElseThrow();
        assertThat(committed.get("stepKey").asString()).isEqualTo("capture");
        assertThat(committed.get("tool").asString()).isEqualTo("capture_tool");
        assertThat(recordsOf(running).stream().map(this::value)
                .filter(event -> event.get("type").asString().equals("CancelRequested")).findFirst().orElseThrow()
                .get("channel").asString()).isEqualTo("MCP");
    }

    @Test
    void aReplayedSubmissionPublishesNothing() {
        OperationId operationId = submit();
        awaitPublished(operationId);

        var replay = ApiClient.onPort(port).submit(token, operationId.toString(), Checkout.command(1, "10.00"));
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        // the relay publishes in the order rows were written: once a later operation's event is out,
        // anything the replay had written would be too
        awaitPublished(submit());

        assertThat(recordsOf(operationId)).extracting(record -> value(record).get("type").asString())
                .containsExactly("OperationAccepted");
    }

    /** Tools that do what they are asked, once per call. */
    /** Answers every call with success; hints: idempotent. */
    static class Answering implements ToolClient {
        @Override
        public ToolReply call(ToolRef tool, Map<String, Object> arguments) {
            return new ToolReply(false, Map.of("done", tool.tool()), "ok");
        }

        @Override
        public Optional<ToolHints> hints(ToolRef tool) {
            return Optional.of(new ToolHints(false, true, false, false));
        }
    }
}

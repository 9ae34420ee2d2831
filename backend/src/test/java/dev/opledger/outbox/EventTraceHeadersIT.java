package dev.opledger.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.TestGateways;
import dev.opledger.mcp.ToolRef;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationSpans;
import dev.opledger.operation.OperationStatus;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The relay publishes each event in a span of its own (tagged with the operationId), a child of
 * the span that wrote the event's row (its {@code trace_context}), and the record carries that
 * span's W3C trace context as a Kafka header ({@code traceparent}), so a consumer's work joins the
 * trace of the request or run that caused the event.
 */
@EventsIntegrationTest
class EventTraceHeadersIT {

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    JsonMapper json;

    @Autowired
    ApplicationContext node;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    OperationSpans spans;

    @Autowired
    io.micrometer.tracing.Tracer tracer;

    @Autowired
    io.micrometer.tracing.propagation.Propagator propagator;

    @Test
    void theNodeTracesWithW3cPropagation() {
        assertThat(tracer).isNotSameAs(io.micrometer.tracing.Tracer.NOOP);
        assertThat(propagator.fields()).contains("traceparent");
        var carrier = new java.util.HashMap<String, String>();
        var span = tracer.nextSpan().name("probe").start();
        try (var ignored = tracer.withSpan(span)) {
            propagator.inject(tracer.currentTraceContext().context(), carrier, java.util.Map::put);
        } finally {
            span.end();
        }
        assertThat(carrier).containsKey("traceparent");
    }

    @Test
    void everyPublishedRecordCarriesATraceparentHeaderOfItsOwnSpan() {
        var operationId = OperationId.random();
        String token = TestTokens.forSubject("trace-" + UUID.randomUUID());
        assertThat(ApiClient.onPort(port).submit(token, operationId.toString(), Checkout.command(1, "10.00")).statusCode())
                .isEqualTo(202);
        await("events of " + operationId + " published").atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.queryForObject("SELECT count(*) = count(published_at) AND count(*) > 0 FROM outbox_event "
                        + "WHERE operation_id = ?", Boolean.class, operationId.value()));

        var records = EventsPublishedIT.recordsOf(operationId);

        assertThat(records).isNotEmpty().allSatisfy(record -> {
            var header = record.headers().lastHeader("traceparent");
            assertThat(header).as("traceparent on %s", record).isNotNull();
            assertThat(new String(header.value(), StandardCharsets.UTF_8)).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]");
        });
        assertThat(records).extracting(record -> new String(record.headers().lastHeader("traceparent").value(),
                StandardCharsets.UTF_8).split("-")[2]).as("a span per event").doesNotHaveDuplicates();
    }

    @Test
    void theAcceptedEventJoinsTheTraceOfTheSubmissionRequestAndTheRunsEventsTheRunsTrace() {
        var operationId = OperationId.random();
        String requestTrace = hex(32);
        String requestSpan = hex(16);
        String token = TestTokens.forSubject("trace-" + UUID.randomUUID());
        var api = ApiClient.onPort(port);
        var submitted = api.send(api.request("/v1/operations", token, Map.of("Idempotency-Key", operationId.toString(),
                "Content-Type", "application/json", "traceparent", "00-" + requestTrace + "-" + requestSpan + "-01"))
                .POST(HttpRequest.BodyPublishers.ofString(Checkout.command(1, "10.00"))).build());
        assertThat(submitted.statusCode()).isEqualTo(202);
        // the test is the worker: it leases (outside any span, as the worker's poller does) and runs
        // the operation in a span as the worker's run does (OperationWorker.RUN_SPAN)
        LeasedOperation leased = lifecycle.lease("trace-node", 1000, Duration.ofSeconds(30)).stream()
                .filter(o -> o.operationId().equals(operationId)).findFirst().orElseThrow();
        String runTrace;
        try (var run = spans.start("opledger.run", operationId)) {
            runTrace = tracer.currentSpan().context().traceId();
            EffectGateway gateway = TestGateways.over(node, new EventsPublishedIT.Answering());
            assertThat(gateway.perform(new Effect(leased.fence(), "reserve", new ToolRef("shop", "reserve_tool"), Map.of(),
                    null))).isInstanceOf(EffectOutcome.Done.class);
            assertThat(lifecycle.finishRun(leased.fence(), "trace-node", OperationStatus.SUCCEEDED, null)).isTrue();
        }
        awaitPublished(operationId, "OperationSucceeded");

        Map<String, String> traceOf = new LinkedHashMap<>();
        EventsPublishedIT.recordsOf(operationId).forEach(record -> traceOf.put(
                header(record, "ce_type").substring("dev.opledger.".length()), traceparent(record).split("-")[1]));

        assertThat(traceOf).containsOnlyKeys("OperationAccepted", "OperationRunning", "AgentToolStarted",
                "AgentToolCompleted", "OperationSucceeded");
        assertThat(traceOf.get("OperationAccepted")).as("the submission request's trace").isEqualTo(requestTrace);
        assertThat(List.of(traceOf.get("AgentToolStarted"), traceOf.get("AgentToolCompleted"),
                traceOf.get("OperationSucceeded"))).as("the run's trace").containsOnly(runTrace);
        // written by the lease, with no span current: the relay's own span's trace
        assertThat(traceOf.get("OperationRunning")).isNotIn(requestTrace, runTrace);
    }

    @Test
    void aStoredContextThatIsNotWellFormedIsNeitherFollowedNorEchoed() {
        var operationId = OperationId.random();
        String token = TestTokens.forSubject("trace-" + UUID.randomUUID());
        assertThat(ApiClient.onPort(port).submit(token, operationId.toString(), Checkout.command(1, "10.00")).statusCode())
                .isEqualTo(202);
        awaitPublished(operationId, "OperationAccepted");
        String traceId = hex(32);
        String valid = "00-" + traceId + "-" + hex(16) + "-01";
        var stored = List.of(
                "00-" + traceId.toUpperCase(Locale.ROOT) + "-" + hex(16) + "-01", // not lower case hex
                "00-" + "0".repeat(32) + "-" + hex(16) + "-01",                     // the invalid trace id
                "ff-" + traceId + "-" + hex(16) + "-01",                            // the forbidden version
                valid + "-extra",                                                    // not version 00's length
                valid + "    ",                                                      // a blank tracestate
                valid + " vendor=a\u0001b");                                        // a control character in it
        for (int i = 0; i < stored.size(); i++) {
            jdbc.update("INSERT INTO outbox_event (operation_ref, operation_id, subject_id, sequence, type, status, "
                    + "trace_context) SELECT id, operation_id, subject_id, ?, 'OperationAccepted', 'ACCEPTED', ? "
                    + "FROM operation WHERE operation_id = ?", 1000 + i, stored.get(i), operationId.value());
        }
        await("the rows published").atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT count(*) = count(published_at) FROM outbox_event WHERE operation_id = ?", Boolean.class,
                operationId.value()));

        var records = EventsPublishedIT.recordsOf(operationId).stream()
                .filter(record -> json.readTree(record.value()).get("sequence").asInt() >= 1000).toList();

        assertThat(records).hasSize(stored.size()).allSatisfy(record -> {
            assertThat(traceparent(record)).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]");
            assertThat(record.headers().lastHeader("tracestate")).as("no stored tracestate echoed").isNull();
        });
        // the first four are not traceparents: the relay's own traces; the last two are, with their tracestate left out
        assertThat(records.subList(0, 4)).allSatisfy(record -> assertThat(traceparent(record)).doesNotContain(traceId));
        assertThat(records.subList(4, 6)).allSatisfy(record -> assertThat(traceparent(record)).contains(traceId));
    }

    private void awaitPublished(OperationId operationId, String type) {
        await("a published " + type + " of " + operationId).atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.queryForObject("SELECT count(*) = count(published_at) AND bool_or(type = ?) "
                        + "FROM outbox_event WHERE operation_id = ?", Boolean.class, type, operationId.value()));
    }

    private static String traceparent(ConsumerRecord<String, byte[]> record) {
        return header(record, "traceparent");
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        assertThat(header).as("%s on %s", name, record).isNotNull();
        return new String(header.value(), StandardCharsets.UTF_8);
    }

    private static String hex(int digits) {
        var random = ThreadLocalRandom.current();
        var text = new StringBuilder();
        while (text.length() < digits) {
            text.append(Character.forDigit(random.nextInt(16), 16));
        }
        return text.toString();
    }
}

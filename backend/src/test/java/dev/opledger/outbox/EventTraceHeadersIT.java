package dev.opledger.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.operation.OperationId;
import dev.opledger.testing.ApiClient;
import dev.opledger.testing.Checkout;
import dev.opledger.testing.EventsIntegrationTest;
import dev.opledger.testing.TestTokens;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The relay publishes each event in a span of its own (tagged with the operationId) and the
 * record carries that span's W3C trace context as a Kafka header ({@code traceparent}), so a
 * consumer's work joins the trace.
 */
@EventsIntegrationTest
class EventTraceHeadersIT {

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

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
}

package dev.opledger.operation;

import static org.assertj.core.api.Assertions.assertThat;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import brave.propagation.tracecontext.TraceContextPropagation;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operationId as a span attribute, and the W3C context of the current span on what leaves the node. */
class OperationSpansTest {

    private final List<MutableSpan> finished = new ArrayList<>();
    private Tracing tracing;
    private OperationSpans spans;

    @BeforeEach
    void setUp() {
        tracing = Tracing.newBuilder().traceId128Bit(true)
                .propagationFactory(TraceContextPropagation.newFactoryBuilder().build())
                .addSpanHandler(new SpanHandler() {
                    @Override
                    public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                        finished.add(span);
                        return true;
                    }
                })
                .build();
        spans = new OperationSpans(new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext())),
                new BravePropagator(tracing));
    }

    @AfterEach
    void tearDown() {
        tracing.close();
    }

    @Test
    void aSpanCarriesTheOperationIdAsAnAttributeAndItsContextIsInjectedWhileItIsCurrent() {
        OperationId id = OperationId.random();
        Map<String, String> inside = new HashMap<>();
        try (var ignored = spans.start("opledger.run", id, "opledger.event_type", "OperationAccepted")) {
            spans.inject(inside::put);
        }
        Map<String, String> outside = new HashMap<>();
        spans.inject(outside::put);

        assertThat(finished).singleElement().satisfies(span -> {
            assertThat(span.name()).isEqualTo("opledger.run");
            assertThat(span.tag(OperationSpans.OPERATION_ID)).isEqualTo(id.toString());
            assertThat(span.tag("opledger.event_type")).isEqualTo("OperationAccepted");
            assertThat(inside.get("traceparent")).isEqualTo("00-" + span.traceId() + "-" + span.id() + "-01");
        });
        assertThat(outside).as("no current span, nothing to send").isEmpty();
    }

    @Test
    void withoutATracerNothingHappens() {
        Map<String, String> carrier = new HashMap<>();
        try (var ignored = OperationSpans.none().start("opledger.run", OperationId.random())) {
            OperationSpans.none().inject(carrier::put);
            OperationSpans.none().tagCurrent(OperationId.random());
        }
        assertThat(carrier).isEmpty();
    }
}

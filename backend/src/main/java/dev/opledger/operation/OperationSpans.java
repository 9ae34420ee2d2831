package dev.opledger.operation;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The operationId on the node's spans (Micrometer Tracing) and the trace context on what leaves
 * the node: the operationId is a span attribute ({@value #OPERATION_ID}), never a metric tag;
 * {@link #inject} writes the current context (W3C {@code traceparent}, {@code tracestate}) into an
 * outgoing carrier: an MCP request's {@code _meta}, a Kafka record's headers. Without a tracer
 * (tracing off) every method does nothing.
 */
public final class OperationSpans {

    /** The span attribute that carries the operationId, in its canonical text form. */
    public static final String OPERATION_ID = "opledger.operation_id";

    private static final OperationSpans NONE = new OperationSpans(Tracer.NOOP, Propagator.NOOP);

    private final Tracer tracer;
    private final Propagator propagator;

    public OperationSpans(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    /** For code (tests, tools) that runs without tracing. */
    public static OperationSpans none() {
        return NONE;
    }

    /** Tags the current span (a request's) with the operationId. */
    public void tagCurrent(OperationId operationId) {
        Span current = tracer.currentSpan();
        if (current != null) {
            current.tag(OPERATION_ID, operationId.toString());
        }
    }

    /** A new span, a child of the current one, current until the scope closes; it ends then. */
    public Scope start(String name, OperationId operationId) {
        return started(tracer.nextSpan().name(name).tag(OPERATION_ID, operationId.toString()));
    }

    /** As {@link #start(String, OperationId)}, with one more attribute (bounded or not: attributes are not tags). */
    public Scope start(String name, OperationId operationId, String attribute, String value) {
        return started(tracer.nextSpan().name(name).tag(OPERATION_ID, operationId.toString()).tag(attribute, value));
    }

    /**
     * As {@link #start(String, OperationId, String, String)}, but a child of the context in
     * {@code parent} (propagation fields, W3C {@code traceparent} and {@code tracestate}) rather
     * than of the current span; with no fields, as that method.
     */
    public Scope startChildOf(Map<String, String> parent, String name, OperationId operationId, String attribute,
            String value) {
        if (parent.isEmpty()) {
            return start(name, operationId, attribute, value);
        }
        return inScope(propagator.extract(parent, Map::get).name(name).tag(OPERATION_ID, operationId.toString())
                .tag(attribute, value).start());
    }

    private Scope started(Span span) {
        return inScope(span.start());
    }

    private Scope inScope(Span span) {
        Tracer.SpanInScope inScope = tracer.withSpan(span);
        return () -> {
            inScope.close();
            span.end();
        };
    }

    /** Writes the current trace context into {@code carrier} (nothing without a current span). */
    public void inject(BiConsumer<String, String> carrier) {
        @Nullable TraceContext context = tracer.currentTraceContext().context();
        if (context != null) {
            propagator.inject(context, carrier, BiConsumer::accept);
        }
    }

    /** A span's time in scope; closing it throws nothing. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {

        @Override
        void close();
    }
}

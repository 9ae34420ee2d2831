package dev.opledger.outbox;

import dev.opledger.operation.OperationSpans;
import dev.opledger.outbox.internal.StoredTraceContext;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The trace context an event is written with: what a statement that writes an outbox row binds as
 * its last parameter ({@link OutboxRow#TRACE}), so the relay publishes the event in the trace of
 * the request or run that wrote it.
 */
@Component
public class OutboxTrace {

    private static final OutboxTrace NONE = new OutboxTrace(OperationSpans.none());

    private final OperationSpans spans;

    OutboxTrace(OperationSpans spans) {
        this.spans = spans;
    }

    /** For code (tests, tools) that writes events without tracing: every event's context is NULL. */
    public static OutboxTrace none() {
        return NONE;
    }

    /** The current span's W3C context in {@code outbox_event.trace_context}'s form; null without a current span. */
    public @Nullable String current() {
        Map<String, String> fields = new HashMap<>(4);
        spans.inject(fields::put);
        return StoredTraceContext.of(fields).map(StoredTraceContext::stored).orElse(null);
    }
}

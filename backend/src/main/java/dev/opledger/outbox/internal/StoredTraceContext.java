package dev.opledger.outbox.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A W3C trace context as {@code outbox_event.trace_context} holds it: the {@code traceparent},
 * then a space and the {@code tracestate} when there is one (a traceparent has no space, so the
 * first one separates them). Both ends check the format: the writer stores only a well-formed
 * context, and the relay uses a stored one only if it is well formed, so a value changed in the
 * table (over-long, not a traceparent) is never echoed into a Kafka header.
 */
public record StoredTraceContext(String traceparent, @Nullable String tracestate) {

    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";

    /** The length of a version-00 traceparent: "00-", 32 hex digits, "-", 16, "-", 2. */
    private static final int TRACEPARENT_LENGTH = 55;
    private static final int TRACE_ID_START = 3;
    private static final int SPAN_ID_START = 36;
    private static final int FLAGS_START = 53;
    /** The length W3C lets a vendor cut a tracestate to; the column's bound is a traceparent, a space and this. */
    static final int MAX_TRACESTATE = 512;

    /** The context in the propagation fields {@code fields} (as a propagator injects them); empty without a valid traceparent. */
    public static Optional<StoredTraceContext> of(Map<String, String> fields) {
        String traceparent = fields.get(TRACEPARENT);
        if (!isTraceparent(traceparent)) {
            return Optional.empty();
        }
        String tracestate = fields.get(TRACESTATE);
        return Optional.of(new StoredTraceContext(traceparent, isTracestate(tracestate) ? tracestate : null));
    }

    /** The stored context, if {@code stored} is one; a tracestate that is not well formed is left out. */
    public static Optional<StoredTraceContext> parse(@Nullable String stored) {
        if (stored == null || stored.length() > 55 + 1 + MAX_TRACESTATE) {
            return Optional.empty();
        }
        int space = stored.indexOf(' ');
        String traceparent = space < 0 ? stored : stored.substring(0, space);
        String tracestate = space < 0 ? null : stored.substring(space + 1);
        return of(tracestate == null ? Map.of(TRACEPARENT, traceparent) : Map.of(TRACEPARENT, traceparent, TRACESTATE, tracestate));
    }

    /** The column's text. */
    public String stored() {
        return tracestate == null ? traceparent : traceparent + " " + tracestate;
    }

    /** As propagation fields, for a propagator to extract. */
    public Map<String, String> fields() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(TRACEPARENT, traceparent);
        if (tracestate != null) {
            fields.put(TRACESTATE, tracestate);
        }
        return fields;
    }

    /** The trace id (32 hex digits). */
    public String traceId() {
        return traceparent.substring(TRACE_ID_START, SPAN_ID_START - 1);
    }

    /**
     * Version 00 (the one this node writes): {@code 00-<trace id>-<parent span id>-<flags>} in
     * lowercase hex, neither id all zeros. Checked character by character, not with a regular
     * expression: the relay checks every event's context, and the expression's matcher was 2 % of
     * the node's CPU (issue 13, docs/benchmarks.md).
     */
    static boolean isTraceparent(@Nullable String value) {
        return value != null && value.length() == TRACEPARENT_LENGTH && value.startsWith("00-")
                && value.charAt(SPAN_ID_START - 1) == '-' && value.charAt(FLAGS_START - 1) == '-'
                && isNonZeroHex(value, TRACE_ID_START, SPAN_ID_START - 1)
                && isNonZeroHex(value, SPAN_ID_START, FLAGS_START - 1)
                && isHex(value, FLAGS_START, TRACEPARENT_LENGTH);
    }

    /** Lowercase hex digits from {@code start} to {@code end}, not all of them zero. */
    private static boolean isNonZeroHex(String value, int start, int end) {
        if (!isHex(value, start, end)) {
            return false;
        }
        for (int i = start; i < end; i++) {
            if (value.charAt(i) != '0') {
                return true;
            }
        }
        return false;
    }

    private static boolean isHex(String value, int start, int end) {
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /** Not blank, at most {@value #MAX_TRACESTATE} characters, printable ASCII only (W3C's list-member characters). */
    private static boolean isTracestate(@Nullable String value) {
        if (value == null || value.isBlank() || value.length() > MAX_TRACESTATE) {
            return false;
        }
        return value.chars().allMatch(c -> c >= 0x20 && c <= 0x7e);
    }
}

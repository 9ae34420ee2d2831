package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredTraceContextTest {

    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    @Test
    void storesTheTraceparentAndTheTracestateAfterASpace() {
        var context = StoredTraceContext.of(Map.of("traceparent", TRACEPARENT, "tracestate", "congo=t61rcWkgMzE, rojo=00f067aa"))
                .orElseThrow();

        assertThat(context.stored()).isEqualTo(TRACEPARENT + " congo=t61rcWkgMzE, rojo=00f067aa");
        assertThat(StoredTraceContext.parse(context.stored())).contains(context);
        assertThat(context.traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
    }

    @Test
    void storesNothingWithoutAWellFormedTraceparent() {
        assertThat(StoredTraceContext.of(Map.of())).isEmpty();
        assertThat(StoredTraceContext.of(Map.of("traceparent", TRACEPARENT.toUpperCase()))).isEmpty();
        assertThat(StoredTraceContext.of(Map.of("traceparent", "ff" + TRACEPARENT.substring(2)))).isEmpty();
        assertThat(StoredTraceContext.of(Map.of("traceparent", TRACEPARENT + "-00"))).isEmpty();
        assertThat(StoredTraceContext.of(Map.of("traceparent", "00-" + "0".repeat(32) + TRACEPARENT.substring(35)))).isEmpty();
        assertThat(StoredTraceContext.of(Map.of("traceparent", TRACEPARENT.substring(0, 36) + "0".repeat(16) + "-01")))
                .isEmpty();
    }

    @Test
    void leavesOutATracestateThatIsOverLongOrNotPrintableAscii() {
        String longest = "k=" + "v".repeat(StoredTraceContext.MAX_TRACESTATE - 2);

        assertThat(StoredTraceContext.of(Map.of("traceparent", TRACEPARENT, "tracestate", longest)).orElseThrow()
                .stored()).hasSize(55 + 1 + StoredTraceContext.MAX_TRACESTATE);
        for (String tracestate : new String[] {longest + "v", "k=a\u0001b", "k=é", "   "}) {
            assertThat(StoredTraceContext.of(Map.of("traceparent", TRACEPARENT, "tracestate", tracestate)).orElseThrow()
                    .tracestate()).as(tracestate).isNull();
        }
    }

    @Test
    void parsesNothingFromAStoredValueThatIsNotAContext() {
        assertThat(StoredTraceContext.parse(null)).isEmpty();
        assertThat(StoredTraceContext.parse("")).isEmpty();
        assertThat(StoredTraceContext.parse("garbage " + TRACEPARENT)).isEmpty();
        assertThat(StoredTraceContext.parse(TRACEPARENT + " " + "k=" + "v".repeat(600))).isEmpty();
        assertThat(StoredTraceContext.parse(TRACEPARENT + " k=a\nb")).hasValueSatisfying(
                context -> assertThat(context.tracestate()).isNull());
    }
}

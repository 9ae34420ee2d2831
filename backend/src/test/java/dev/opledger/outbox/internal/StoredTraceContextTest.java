package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
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

    /** W3C's version-00 traceparent as a regular expression, with its rule that neither id is all zeros. */
    private static final Pattern VERSION_00 = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}");

    private static boolean isTraceparentByExpression(String value) {
        var matcher = VERSION_00.matcher(value);
        return matcher.matches() && !matcher.group(1).equals("0".repeat(32)) && !matcher.group(2).equals("0".repeat(16));
    }

    @Test
    void acceptsExactlyWhatTheFormatsExpressionAcceptsOnGeneratedNearMisses() {
        // a valid traceparent with one to three changes: a character replaced (by another hex
        // digit, an uppercase one, a dash, a space, non-ASCII), inserted or removed, an id zeroed
        String alphabet = "0123456789abcdefABCDEFg-_ \u00e9\u0660\uff10\ud83d\u0000";
        Random random = new Random(13);
        int accepted = 0;
        for (int i = 0; i < 50_000; i++) {
            StringBuilder value = new StringBuilder(validTraceparent(random));
            for (int change = random.nextInt(4); change > 0; change--) {
                int at = value.isEmpty() ? 0 : random.nextInt(value.length());
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                switch (random.nextInt(5)) {
                    case 0 -> value.insert(at, c);
                    case 1 -> { if (!value.isEmpty()) value.deleteCharAt(at); }
                    case 2 -> { if (value.length() >= 35) value.replace(3, 35, random.nextBoolean() ? "0".repeat(32) : "0".repeat(31) + "1"); }
                    case 3 -> { if (value.length() >= 52) value.replace(36, 52, "0".repeat(16)); }
                    default -> { if (!value.isEmpty()) value.setCharAt(at, c); }
                }
            }
            String candidate = value.toString();
            boolean expected = isTraceparentByExpression(candidate);
            assertThat(StoredTraceContext.isTraceparent(candidate)).as(candidate).isEqualTo(expected);
            accepted += expected ? 1 : 0;
        }
        // both sides of the line were reached
        assertThat(accepted).isBetween(5_000, 45_000);
    }

    private static String validTraceparent(Random random) {
        String hex = "0123456789abcdef";
        StringBuilder value = new StringBuilder("00-");
        for (int i = 3; i < 55; i++) {
            value.append(i == 35 || i == 52 ? '-' : hex.charAt(random.nextInt(16)));
        }
        return value.toString();
    }
}

package dev.opledger.graph.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.opledger.graph.JsonStateSerializer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.bsc.langgraph4j.state.AgentState;
import org.junit.jupiter.api.Test;

/**
 * The structural copy of graph state against the JSON round trip it stands for, on generated
 * states: every value, its class and a decimal's scale must come back the same, or both must
 * fail. The generator leans on the edges of JSON's forms: whole numbers at the int and long
 * limits, decimals of every scale, doubles, records, sets, arrays, maps with other keys, strings
 * with control characters and lone surrogates, nesting deeper than the copy goes.
 */
class StateJsonCopyTest {

    private static final int STATES = 3_000;

    record Line(String sku, int units, BigDecimal price, List<String> tags) {
    }

    record Shipment(Line line, Instant at, Optional<String> note, Colour colour) {
    }

    enum Colour { RED, GREEN }

    private final JsonStateSerializer<AgentState> serializer = new JsonStateSerializer<>(AgentState::new);

    @Test
    void aCopyIsWhatTheJsonRoundTripGivesForGeneratedStates() {
        for (int seed = 0; seed < STATES; seed++) {
            Map<String, Object> state = new Generator(new Random(seed)).state();
            String expected = outcome(() -> StateJson.read(utf8(StateJson.write(state))));
            String actual = outcome(() -> StateJson.copy(state));
            if (!expected.equals(actual)) {
                fail("seed %d: the copy differs from the round trip%s", seed, difference(expected, actual));
            }
        }
    }

    @Test
    void aCloneIsWhatLanggraphsSerializedCloneGaveForGeneratedStates() {
        for (int seed = 0; seed < STATES / 3; seed++) {
            Map<String, Object> state = new Generator(new Random(seed)).state();
            AgentState original = new AgentState(state);
            String expected = outcome(() -> serializer.bytesToObject(serializer.objectToBytes(original)).data());
            String actual = outcome(() -> serializer.cloneObject(original).data());
            if (!expected.equals(actual)) {
                fail("seed %d: the clone differs from the serialized one%s", seed, difference(expected, actual));
            }
        }
    }

    @Test
    void theCopySharesNoMapOrListWithTheOriginal() {
        Map<String, Object> inner = new LinkedHashMap<>(Map.of("units", 1));
        List<Object> lines = new ArrayList<>(List.of(inner));
        Map<String, Object> state = new HashMap<>(Map.of("lines", lines));

        Map<String, Object> copy = StateJson.copy(state);
        @SuppressWarnings("unchecked")
        var copiedInner = (Map<String, Object>) ((List<Object>) copy.get("lines")).getFirst();
        copiedInner.put("units", 2);
        ((List<Object>) copy.get("lines")).add("more");

        assertThat(inner).containsEntry("units", 1);
        assertThat(lines).hasSize(1);
    }

    @Test
    void nestingBeyondTheCopysDepthFailsOrSucceedsAsTheRoundTripDoes() {
        for (int depth : new int[] {63, 64, 65, 66, 400, 1_200}) {
            Map<String, Object> state = new LinkedHashMap<>();
            Map<String, Object> level = state;
            for (int i = 0; i < depth; i++) {
                Map<String, Object> next = new LinkedHashMap<>();
                level.put("k", i % 2 == 0 ? next : List.of(next));
                level = next;
            }
            assertThat(outcome(() -> StateJson.copy(state)))
                    .as("depth %d", depth).isEqualTo(outcome(() -> StateJson.read(utf8(StateJson.write(state)))));
        }
    }

    private static String utf8(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    /** Where two forms part, with some of what comes before. */
    private static String difference(String expected, String actual) {
        int at = 0;
        while (at < Math.min(expected.length(), actual.length()) && expected.charAt(at) == actual.charAt(at)) {
            at++;
        }
        int from = Math.max(0, at - 120);
        return "%n expected: …%s%n actual:   …%s".formatted(expected.substring(from, Math.min(expected.length(), at + 120)),
                actual.substring(from, Math.min(actual.length(), at + 120)));
    }

    /** The value with the class of every part, or the failure's class: what two results must share. */
    private static String outcome(Attempt attempt) {
        try {
            return form(attempt.run());
        } catch (Exception | StackOverflowError e) {
            return "fails: " + e.getClass().getSimpleName();
        }
    }

    private static String form(Object value) {
        if (value == null) {
            return "null";
        }
        String type = value.getClass().getSimpleName();
        if (value instanceof Map<?, ?> map) {
            var parts = new StringBuilder(type).append('{');
            map.forEach((k, v) -> parts.append(form(k)).append('=').append(form(v)).append(','));
            return parts.append('}').toString();
        }
        if (value instanceof List<?> list) {
            var parts = new StringBuilder(type).append('[');
            list.forEach(v -> parts.append(form(v)).append(','));
            return parts.append(']').toString();
        }
        if (value instanceof String text) {
            return type + ':' + text.chars().mapToObj(Integer::toHexString).toList();
        }
        return type + ':' + value; // BigDecimal's toString carries its scale
    }

    @FunctionalInterface
    private interface Attempt {
        Object run() throws Exception;
    }

    private static final class Generator {

        private final Random random;

        Generator(Random random) {
            this.random = random;
        }

        Map<String, Object> state() {
            Map<String, Object> state = random.nextBoolean() ? new HashMap<>() : new LinkedHashMap<>();
            int keys = random.nextInt(8);
            for (int i = 0; i < keys; i++) {
                state.put(key(), value(0));
            }
            return state;
        }

        private Object value(int depth) {
            int kinds = depth > 4 ? 20 : 27;
            return switch (random.nextInt(kinds)) {
                case 0 -> null;
                case 1, 2 -> text();
                case 3 -> random.nextBoolean();
                case 4 -> random.nextInt();
                case 5 -> pick(0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE);
                case 6 -> pick(0L, (long) Integer.MAX_VALUE, (long) Integer.MAX_VALUE + 1, (long) Integer.MIN_VALUE,
                        (long) Integer.MIN_VALUE - 1, Long.MAX_VALUE, Long.MIN_VALUE, random.nextLong());
                case 7 -> new BigInteger(random.nextInt(140) + 1, random).multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
                case 8 -> pick(BigInteger.ONE.shiftLeft(31), BigInteger.ONE.shiftLeft(31).negate(),
                        BigInteger.ONE.shiftLeft(63), BigInteger.ONE.shiftLeft(63).negate(), BigInteger.ZERO,
                        BigInteger.ONE.shiftLeft(256), BigInteger.ONE.shiftLeft(300).negate());
                case 9, 10 -> new BigDecimal(new BigInteger(random.nextInt(90) + 1, random), random.nextInt(160) - 80);
                case 11 -> pick(new BigDecimal("0"), new BigDecimal("-0.00"), new BigDecimal("1E+3"), new BigDecimal("9.90"),
                        new BigDecimal("1234.50"), new BigDecimal("0.0000001"), new BigDecimal("2147483648"),
                        new BigDecimal("-9223372036854775809"), new BigDecimal("1E-70"));
                case 12 -> pick(0.1, -0.0, 1e10, 1.0, Double.NaN, Double.POSITIVE_INFINITY, 5e-324, random.nextDouble());
                case 13 -> pick(1.5f, (short) 7, (byte) -3, 'x');
                case 14 -> pick(Colour.RED, UUID.nameUUIDFromBytes(new byte[] {1}), Instant.ofEpochSecond(1_700_000_000L, 5),
                        Optional.empty(), Optional.of("n"));
                case 15 -> new byte[] {1, 2, (byte) random.nextInt()};
                case 16 -> new String[] {text(), text()};
                case 17 -> new int[] {random.nextInt(), 3};
                case 18 -> new Line(text(), random.nextInt(), new BigDecimal(random.nextInt(100_000)).movePointLeft(2),
                        List.of(text()));
                case 19 -> new Shipment(new Line("s", 1, new BigDecimal("1.10"), List.of()), Instant.EPOCH,
                        random.nextBoolean() ? Optional.empty() : Optional.of(text()), Colour.GREEN);
                case 20, 21 -> map(depth + 1);
                case 22 -> list(depth + 1);
                case 23 -> Collections.unmodifiableList(list(depth + 1));
                case 24 -> new LinkedHashSet<>(list(depth + 1));
                case 25 -> {
                    Map<Object, Object> other = new LinkedHashMap<>();
                    other.put(random.nextInt(5), value(depth + 1));
                    other.put(key(), value(depth + 1));
                    yield other;
                }
                default -> random.nextBoolean() ? Map.of(key(), text()) : List.of(text(), 1);
            };
        }

        private Map<String, Object> map(int depth) {
            Map<String, Object> map = switch (random.nextInt(4)) {
                case 0 -> new HashMap<>();
                case 1 -> new TreeMap<>();
                case 2 -> new ConcurrentHashMap<>();
                default -> new LinkedHashMap<>();
            };
            int size = random.nextInt(5);
            for (int i = 0; i < size; i++) {
                Object value = value(depth);
                if (value != null || !(map instanceof ConcurrentHashMap)) {
                    map.put(key(), value);
                }
            }
            return random.nextInt(4) == 0 ? Collections.unmodifiableMap(map) : map;
        }

        private List<Object> list(int depth) {
            Object[] elements = new Object[random.nextInt(5)];
            for (int i = 0; i < elements.length; i++) {
                elements[i] = value(depth);
            }
            return random.nextBoolean() ? new ArrayList<>(Arrays.asList(elements)) : Arrays.asList(elements);
        }

        private String key() {
            return random.nextInt(4) == 0 ? text() : "k" + random.nextInt(20);
        }

        private String text() {
            var text = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                text.append(switch (random.nextInt(8)) {
                    case 0 -> (char) random.nextInt(0x20); // control characters
                    case 1 -> (char) (0xD800 + random.nextInt(0x800)); // a lone surrogate
                    case 2 -> "🚀";
                    case 3 -> (char) (0x80 + random.nextInt(0x7F80));
                    case 4 -> "\"\\";
                    default -> (char) (0x20 + random.nextInt(0x5F));
                });
            }
            return text.toString();
        }

        @SafeVarargs
        private <T> T pick(T... choices) {
            return choices[random.nextInt(choices.length)];
        }
    }
}

package dev.opledger.graph.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON form of graph state, shared by the graph's serializer (which clones the state
 * before every node and checkpoint) and the saver (which stores it as jsonb). A mapper of its
 * own, not the application's: a change to the HTTP API's JSON settings must not change what
 * a resumed thread reads back.
 *
 * <p>What comes back: objects as {@code LinkedHashMap<String, Object>} (records become maps of
 * their components), arrays as {@code ArrayList}, whole numbers as {@code Integer}, {@code Long}
 * or {@code BigInteger} by size, other numbers as {@code BigDecimal} (exact, for amounts),
 * strings, booleans and null. A value Jackson cannot write, or would write as an empty
 * object (no properties), fails the write.
 */
public final class StateJson {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            // off by default in Jackson 3: an object without properties would come back as {}
            .enable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    // Beyond these the copy leaves a value to the JSON round trip, whose limits (nesting depth,
    // number and string lengths) then apply exactly as they did before there was a copy.
    private static final int MAX_COPIED_DEPTH = 64;
    private static final int MAX_COPIED_STRING = 1 << 20;
    private static final int MAX_COPIED_DIGITS = 64;
    private static final int MAX_COPIED_BITS = 256;

    private StateJson() {
    }

    public static String write(Map<String, Object> state) {
        return MAPPER.writeValueAsString(state);
    }

    public static Map<String, Object> read(String json) {
        return MAPPER.readValue(json, MAP);
    }

    /**
     * Exactly what {@link #read} gives for the UTF-8 text of {@link #write}, as langgraph4j's clone
     * through its serializer's bytes took it, built without the text
     * where the JSON form of a value is known here: strings, booleans, whole numbers, decimals, and
     * the JDK's own maps (string keys) and lists. Any other value (a record, a double, an enum, a
     * date…) goes through JSON itself, so it comes back as it always did. langgraph4j clones the
     * state before every node and checkpoint; cloned through the text, the clones were about 6 % of
     * the node's CPU per checkout (issue 13, docs/benchmarks.md).
     */
    public static Map<String, Object> copy(Map<String, Object> state) {
        try {
            Object copied = copyValue(state, 0);
            if (copied instanceof Map<?, ?>) {
                @SuppressWarnings("unchecked") // a map with string keys only, or JSON's own object
                Map<String, Object> map = (Map<String, Object>) copied;
                return map;
            }
        } catch (TooDeep e) {
            // the round trip below meets the depth and decides what happens to it
        }
        return read(asUtf8(write(state)));
    }

    private static Object copyValue(Object value, int depth) {
        return switch (value) {
            case null -> null;
            case String text when text.length() <= MAX_COPIED_STRING -> asUtf8(text);
            case Boolean flag -> flag;
            case Integer number -> number;
            case Long number -> number == number.intValue() ? (Object) number.intValue() : number;
            case BigInteger number when number.bitLength() <= MAX_COPIED_BITS -> wholeNumber(number);
            case BigDecimal number when number.precision() <= MAX_COPIED_DIGITS
                    && Math.abs(number.scale()) <= MAX_COPIED_DIGITS -> decimal(number);
            case Map<?, ?> map when isJdkCollection(map) -> copyMap(map, depth + 1);
            case List<?> list when isJdkCollection(list) -> copyList(list, depth + 1);
            default -> throughJson(value);
        };
    }

    private static Object throughJson(Object value) {
        return MAPPER.readValue(asUtf8(MAPPER.writeValueAsString(value)), Object.class);
    }

    private static Object copyMap(Map<?, ?> map, int depth) {
        if (depth > MAX_COPIED_DEPTH) {
            throw new TooDeep();
        }
        Map<String, Object> copy = new LinkedHashMap<>(Math.max(16, (int) (map.size() / 0.75f) + 1));
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String key)) {
                return throughJson(map);
            }
            // two keys may meet as one after UTF-8: the later value wins, as when JSON is read
            copy.put(asUtf8(key), copyValue(entry.getValue(), depth));
        }
        return copy;
    }

    private static List<Object> copyList(List<?> list, int depth) {
        if (depth > MAX_COPIED_DEPTH) {
            throw new TooDeep();
        }
        List<Object> copy = new ArrayList<>(list.size());
        for (Object element : list) {
            copy.add(copyValue(element, depth));
        }
        return copy;
    }

    /** How JSON reads a whole number back: the smallest of int, long and BigInteger that holds it. */
    private static Object wholeNumber(BigInteger number) {
        int bits = number.bitLength();
        if (bits < Integer.SIZE) {
            return Integer.valueOf(number.intValue());
        }
        if (bits < Long.SIZE) {
            return Long.valueOf(number.longValue());
        }
        return number;
    }

    /**
     * JSON writes a decimal's {@code toString()}: without a point or an exponent only at scale 0,
     * and then reads it back as a whole number; any other scale comes back as the same decimal.
     */
    private static Object decimal(BigDecimal number) {
        return number.scale() == 0 ? wholeNumber(number.unscaledValue()) : number;
    }

    /**
     * The text as it comes back from UTF-8, as the clone's JSON travelled through the serializer's
     * bytes: a surrogate without its pair cannot be encoded and comes back as '?'.
     */
    private static String asUtf8(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            }
        }
        return text;
    }

    // Maps and lists of java.util only: another implementation may have a JSON form of its own.
    private static boolean isJdkCollection(Object collection) {
        return collection.getClass().getName().startsWith("java.util.");
    }

    private static final class TooDeep extends RuntimeException {
        TooDeep() {
            super(null, null, false, false);
        }
    }
}

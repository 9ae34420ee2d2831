package dev.opledger.graph.internal;

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

    private StateJson() {
    }

    public static String write(Map<String, Object> state) {
        return MAPPER.writeValueAsString(state);
    }

    public static Map<String, Object> read(String json) {
        return MAPPER.readValue(json, MAP);
    }
}

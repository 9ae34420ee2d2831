package dev.opledger.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.opledger.mcp.internal.JsonValueForms.form;
import static org.assertj.core.api.Assertions.fail;

import dev.opledger.mcp.ToolReply;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A tool's result read directly from the parsed JSON object against the SDK's {@code CallToolResult}
 * it stands for, on generated results as the transport parses them: the same reply (its values
 * and their classes), or both fail. The generator covers the plain form and every way out of it:
 * content that is not only text, text items with more than their text, {@code isError}, {@code _meta}
 * and {@code resultType} of other types, structured content of every JSON type, unknown members.
 */
class RepliesOfResultTest {

    private static final int RESULTS = 4_000;
    private static final TypeRef<LinkedHashMap<String, Object>> OBJECT = new TypeRef<>() {
    };

    private final McpJsonMapper json = McpJsonDefaults.getMapper();

    @Test
    void aResultReadDirectlyGivesTheReplyTheSdksResultGives() throws Exception {
        int direct = 0;
        for (int seed = 0; seed < RESULTS; seed++) {
            Random random = new Random(seed);
            // as the transport has it: the JSON text parsed by the SDK's mapper
            Map<String, Object> result = json.readValue(json.writeValueAsString(new Generator(random).result()), OBJECT);
            String expected = outcome(() -> Replies.of(json.convertValue(result, CallToolResult.class)));
            String actual = outcome(() -> Replies.ofResult(result, json));
            if (!expected.equals(actual)) {
                fail("seed %d: %s%n SDK:    %s%n direct: %s", seed, json.writeValueAsString(result), expected, actual);
            }
            if (!expected.startsWith("fails")) {
                direct++;
            }
        }
        assertThat(direct).as("results that made a reply").isGreaterThan(RESULTS / 2);
    }

    @Test
    void thePlainFormIsReadAsTheSdkReadsIt() throws Exception {
        Map<String, Object> result = json.readValue("""
                {"content": [{"type": "text", "text": "reserved"}], "isError": false,
                 "structuredContent": {"reservationId": "r-1", "units": 2, "price": 9.9, "big": 12345678901}}""", OBJECT);

        ToolReply reply = Replies.ofResult(result, json);

        assertThat(reply).isEqualTo(Replies.of(json.convertValue(result, CallToolResult.class)));
        assertThat(reply.text()).isEqualTo("reserved");
        assertThat(reply.content()).containsEntry("units", 2).containsEntry("big", 12345678901L);
    }

    private static String outcome(Supplier<ToolReply> reply) {
        try {
            ToolReply made = reply.get();
            return made.error() + " " + form(made.content()) + " " + form(made.text());
        } catch (RuntimeException e) {
            return "fails";
        }
    }

    private static final class Generator {

        private final Random random;

        Generator(Random random) {
            this.random = random;
        }

        Map<String, Object> result() {
            Map<String, Object> result = new LinkedHashMap<>();
            if (random.nextInt(8) > 0) {
                result.put("content", random.nextInt(10) == 0 ? pick(null, "text", 3, Map.of("type", "text")) : content());
            }
            if (random.nextBoolean()) {
                result.put("isError", random.nextInt(4) > 0 ? random.nextBoolean()
                        : pick(null, "true", "false", 1, 0, "yes", List.of()));
            }
            if (random.nextBoolean()) {
                result.put("structuredContent", value(0));
            }
            if (random.nextInt(4) == 0) {
                result.put("resultType", pick("complete", null, 5, List.of("complete")));
            }
            if (random.nextInt(4) == 0) {
                result.put("_meta", pick(Map.of("k", 1), Map.of(), null, 5, "meta", List.of(1)));
            }
            if (random.nextInt(6) == 0) {
                result.put("unknown" + random.nextInt(3), value(1));
            }
            return result;
        }

        private List<Object> content() {
            List<Object> items = new ArrayList<>();
            int size = random.nextInt(4);
            for (int i = 0; i < size; i++) {
                items.add(switch (random.nextInt(30)) {
                    case 0 -> map("type", "image", "data", "aGk=", "mimeType", "image/png");
                    case 1 -> map("type", "audio", "data", "aGk=", "mimeType", "audio/wav");
                    case 2 -> map("type", "resource_link", "uri", "file:///x", "name", "x");
                    case 3 -> map("type", "resource", "resource", map("uri", "file:///x", "text", "t"));
                    case 4 -> map("type", "nonsense", "text", "t");
                    case 5 -> map("type", "text", "text", pick(null, 5, true, List.of("t")));
                    case 6 -> map("type", "text", "text", text(), "annotations", pick(Map.of("priority", 0.5), 5, "x",
                            Map.of("audience", List.of("user"))));
                    case 7 -> map("type", "text", "text", text(), "_meta", pick(Map.of("k", "v"), 5));
                    case 8 -> pick("text", 5, null, List.of());
                    case 9 -> map("text", text());
                    default -> map("type", "text", "text", text());
                });
            }
            return items;
        }

        private Object value(int depth) {
            return switch (random.nextInt(depth > 2 ? 8 : 10)) {
                case 0 -> null;
                case 1 -> text();
                case 2 -> random.nextBoolean();
                case 3 -> random.nextInt();
                case 4 -> random.nextLong();
                case 5 -> random.nextDouble() * 1000;
                case 6 -> pick(0.1, 1e21, -0.0, 12345678901234567890.0, 9.90);
                case 7 -> pick(Integer.MAX_VALUE, Long.MIN_VALUE, 0);
                case 8 -> {
                    Map<String, Object> map = new LinkedHashMap<>();
                    int size = random.nextInt(4);
                    for (int i = 0; i < size; i++) {
                        map.put("k" + random.nextInt(6), value(depth + 1));
                    }
                    yield map;
                }
                default -> {
                    List<Object> list = new ArrayList<>();
                    int size = random.nextInt(4);
                    for (int i = 0; i < size; i++) {
                        list.add(value(depth + 1));
                    }
                    yield list;
                }
            };
        }

        private String text() {
            return pick("done", "", "{\"id\": \"m-1\", \"n\": [1, 2.5]}", " {\"a\": {\"b\": null}} ", "[1]", "Zoë 🚀", "{ not json");
        }

        private static Map<String, Object> map(Object... keysAndValues) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < keysAndValues.length; i += 2) {
                map.put((String) keysAndValues[i], keysAndValues[i + 1]);
            }
            return map;
        }

        @SafeVarargs
        private <T> T pick(T... choices) {
            return choices[random.nextInt(choices.length)];
        }
    }
}

package dev.opledger.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static dev.opledger.mcp.internal.JsonValueForms.form;
import static org.assertj.core.api.Assertions.fail;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCMessage;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The plain result response made directly against the SDK's conversion it stands for, on
 * generated JSON-RPC messages read as the transport reads them ({@code JsonRpc.deserializeMessage}):
 * the same message (its values and their classes, nested ones too), or both fail. The generator
 * covers the plain form and every way out of it: errors, both result and error, other members,
 * ids of every JSON type, another or no {@code jsonrpc}, results that are not objects, and number
 * forms at and past the int, long and double limits.
 */
class PlainResponseMapperTest {

    private static final int MESSAGES = 5_000;

    private final McpJsonMapper sdk = McpJsonDefaults.getMapper();
    private final McpJsonMapper plain = new PlainResponseMapper(sdk);

    @Test
    void aPlainResponseMadeDirectlyIsTheMessageTheSdksConversionMakes() throws Exception {
        int direct = 0;
        int made = 0;
        for (int seed = 0; seed < MESSAGES; seed++) {
            String text = new Generator(new Random(seed)).message();
            String expected = outcome(sdk, text);
            String actual = outcome(plain, text);
            if (!expected.equals(actual)) {
                fail("seed %d: %s%n SDK:    %s%n direct: %s", seed, text, expected, actual);
            }
            Object parsed = sdk.readValue(text, Object.class);
            if (parsed instanceof Map<?, ?> message && PlainResponseMapper.isPlainResult(message)) {
                direct++;
            }
            if (!expected.startsWith("fails")) {
                made++;
            }
        }
        assertThat(direct).as("messages made directly").isBetween(MESSAGES / 5, MESSAGES * 4 / 5);
        assertThat(made).as("messages made at all").isGreaterThan(direct);
    }

    @Test
    void aToolsAnswerIsMadeDirectlyWithItsValues() throws Exception {
        String text = """
                {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "reserved"}],
                 "structuredContent": {"units": 2, "price": 9.9, "big": 12345678901}}}""";

        JSONRPCMessage message = JsonRpc.deserializeMessage(plain, text);

        assertThat(message).isEqualTo(JsonRpc.deserializeMessage(sdk, text));
        assertThat(message).isInstanceOfSatisfying(JSONRPCResponse.class, response -> {
            assertThat(response.id()).isEqualTo(7);
            assertThat(response.error()).isNull();
            assertThat(response.result()).isInstanceOfSatisfying(Map.class,
                    result -> assertThat(result).containsKey("structuredContent"));
        });
    }

    private static String outcome(McpJsonMapper mapper, String text) {
        try {
            JSONRPCMessage message = JsonRpc.deserializeMessage(mapper, text);
            return message.getClass().getSimpleName() + " " + form(message instanceof JSONRPCResponse response
                    ? List.of(response.jsonrpc(), form(response.id()), form(response.result()), form(response.error()))
                    : message);
        } catch (Exception e) {
            return "fails";
        }
    }

    /** JSON-RPC messages as text, mostly result responses, each member chosen to sit on or just off the plain form. */
    private static final class Generator {

        private static final String[] NUMBERS = {"0", "-0", "7", "-7", "2147483647", "2147483648", "-2147483649",
                "9223372036854775807", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
                "1.0", "0.1", "-2.5e-3", "1e2", "1E400", "-1e-400", "4.9e-324", "1.7976931348623157e308", "3.0000"};

        private final Random random;

        Generator(Random random) {
            this.random = random;
        }

        String message() {
            var members = new StringBuilder();
            if (random.nextInt(10) > 0) {
                member(members, "jsonrpc", random.nextInt(10) > 0 ? "\"2.0\"" : pick("\"1.0\"", "2.0", "null", "\"2.0 \""));
            }
            if (random.nextInt(12) > 0) {
                member(members, "id", switch (random.nextInt(8)) {
                    case 0 -> "\"" + random.nextInt(100) + "\"";
                    case 1 -> pick("null", "true", "1.5", "{}", "[]", "\"\"");
                    case 2 -> pick(NUMBERS);
                    default -> String.valueOf(random.nextInt(1000));
                });
            }
            boolean result = random.nextInt(8) > 0;
            if (result) {
                member(members, "result", random.nextInt(8) > 0 ? object(0) : value(1));
            }
            if (!result || random.nextInt(10) == 0) {
                member(members, "error", random.nextInt(5) > 0
                        ? "{\"code\": " + pick("-32602", "-32603", "1.5", "\"x\"", "null") + ", \"message\": " + string()
                                + (random.nextBoolean() ? ", \"data\": " + value(1) : "") + "}"
                        : value(1));
            }
            if (random.nextInt(12) == 0) {
                member(members, pick("method", "params", "extra", "_meta"), value(2));
            }
            return "{" + members + "}";
        }

        private void member(StringBuilder members, String name, String value) {
            if (!members.isEmpty()) {
                members.append(", ");
            }
            members.append('"').append(name).append("\": ").append(value);
        }

        private String object(int depth) {
            var members = new StringBuilder();
            int size = random.nextInt(depth > 2 ? 2 : 5);
            for (int i = 0; i < size; i++) {
                member(members, pick("content", "structuredContent", "isError", "k" + random.nextInt(4), "é\\n",
                        "_meta"), value(depth + 1));
            }
            return "{" + members + "}";
        }

        private String value(int depth) {
            return switch (random.nextInt(depth > 3 ? 5 : 8)) {
                case 0 -> pick("null", "true", "false");
                case 1, 2 -> pick(NUMBERS);
                case 3, 4 -> string();
                case 5 -> object(depth + 1);
                default -> {
                    var items = new StringBuilder("[");
                    int size = random.nextInt(4);
                    for (int i = 0; i < size; i++) {
                        items.append(i == 0 ? "" : ", ").append(value(depth + 1));
                    }
                    yield items.append(']').toString();
                }
            };
        }

        private String string() {
            return pick("\"\"", "\"reserved\"", "\"a\\\"b\\\\c\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\\ud800\"",
                    "\"line\\nbreak\\t\"", "\"\\u0000\"");
        }

        private String pick(String... values) {
            return values[random.nextInt(values.length)];
        }
    }
}

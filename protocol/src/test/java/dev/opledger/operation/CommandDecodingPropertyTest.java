package dev.opledger.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * No two distinct accepted bodies share a payload hash through any decoding step: for many
 * generated strings (seeded, so a failure reproduces) written into a body, as a value or a member
 * name, raw, escaped, or as invalid UTF-8, the body is either refused, or the canonical form holds
 * exactly the generated string, and every hash stands for one string only.
 */
class CommandDecodingPropertyTest {

    private static final long SEED = 7493;
    private static final int BODIES = 20_000;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A generated string, the bytes that spell it inside a JSON string, and whether some are not UTF-8. */
    private record Spelled(String string, byte[] literal, boolean invalidUtf8) {

        /** As the value of {@code s}, or as the one member name of the arguments. */
        byte[] body(boolean asName) {
            var body = new ByteArrayOutputStream();
            body.writeBytes(("{\"type\":\"t\",\"arguments\":{\"" + (asName ? "" : "s\":\""))
                    .getBytes(StandardCharsets.UTF_8));
            body.writeBytes(literal);
            body.writeBytes((asName ? "\":1}}" : "\"}}").getBytes(StandardCharsets.UTF_8));
            return body.toByteArray();
        }
    }

    @Test
    void refusesOrKeepsEveryCodeUnitAndNoHashStandsForTwoStrings() {
        var random = new Random(SEED);
        Map<PayloadHash, String> stringOfHash = new HashMap<>();
        Map<String, PayloadHash> hashOfString = new HashMap<>();
        Map<String, String> firstSpelling = new HashMap<>();
        int accepted = 0;
        int respelled = 0;
        for (int i = 0; i < BODIES; i++) {
            Spelled spelled = spell(random, random.nextBoolean());
            boolean asName = random.nextBoolean();
            byte[] body = spelled.body(asName);
            // String.codePoints() yields a lone surrogate as itself, a pair as one supplementary code point
            boolean expectAccepted = !spelled.invalidUtf8()
                    && spelled.string().codePoints().noneMatch(cp -> cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF));
            String text = new String(body, StandardCharsets.ISO_8859_1);
            String what = "body " + i + " of seed " + SEED + ": " + text;
            if (!expectAccepted) {
                assertThat(catchThrowable(() -> Command.parse(body))).as(what).isInstanceOf(MalformedCommandException.class);
                continue;
            }
            Command command = Command.parse(body);
            byte[] canonical = command.canonicalJson().getBytes(StandardCharsets.UTF_8);
            assertThat(PayloadHash.sha256(canonical)).as(what).isEqualTo(command.payloadHash());
            JsonNode arguments = JSON.readTree(canonical).get("arguments");
            String kept = asName ? arguments.propertyNames().iterator().next() : arguments.get("s").asString();
            assertThat(kept).as(what).isEqualTo(spelled.string());
            String placed = (asName ? "name " : "value ") + kept;
            String earlier = stringOfHash.putIfAbsent(command.payloadHash(), placed);
            assertThat(earlier == null || earlier.equals(placed)).as(what + " shares its hash with " + earlier).isTrue();
            // and the other way round: one string, however spelled, is one hash
            assertThat(hashOfString.computeIfAbsent(placed, k -> command.payloadHash())).as(what)
                    .isEqualTo(command.payloadHash());
            if (!firstSpelling.computeIfAbsent(placed, k -> text).equals(text)) {
                respelled++;
            }
            accepted++;
        }
        // the generator must exercise both sides, or the property says nothing
        assertThat(accepted).isBetween(BODIES / 10, BODIES - BODIES / 10);
        assertThat(stringOfHash).hasSizeGreaterThan(BODIES / 10);
        assertThat(respelled).as("bodies spelling an earlier string differently").isGreaterThan(BODIES / 100);
    }

    /** A random string, each piece spelled one of several ways. */
    private static Spelled spell(Random random, boolean small) {
        var string = new StringBuilder();
        var body = new ByteArrayOutputStream();
        boolean invalid = false;
        for (int n = random.nextInt(small ? 3 : 12); n > 0; n--) {
            switch (random.nextInt(10)) {
                case 0 -> { // a lone surrogate (or, next to another, half of a pair), always escaped
                    char unit = (char) (random.nextBoolean() ? 0xD800 + random.nextInt(0x400) : 0xDC00 + random.nextInt(0x400));
                    if (random.nextInt(4) == 0) {
                        unit = random.nextBoolean() ? '\uD83D' : '\uDE00';
                    }
                    string.append(unit);
                    escape(body, unit);
                }
                case 1 -> { // bytes no strict decoder accepts: overlong, CESU-8 surrogates, stray, beyond U+10FFFF
                    byte[][] bad = {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xC1, (byte) 0xBF},
                            {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF},
                            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                            // truncated, then 'x' so that a stray 0x80 coming next cannot complete it
                            {(byte) 0xFF}, {(byte) 0x80}, {(byte) 0xE2, (byte) 0x82, 'x'}};
                    body.writeBytes(bad[random.nextInt(bad.length)]);
                    string.append('\uFFFD'); // what a lenient decoder would have read
                    invalid = true;
                }
                case 2 -> { // U+0000 or another control character, escaped as JSON requires
                    char control = random.nextInt(3) == 0 ? '\u0000' : (char) random.nextInt(0x20);
                    string.append(control);
                    escape(body, control);
                }
                case 3 -> { // the characters a replacement would produce, spelled legitimately
                    String look = random.nextBoolean() ? "?" : random.nextBoolean() ? "\uFFFD" : "/";
                    string.append(look);
                    body.writeBytes(look.getBytes(StandardCharsets.UTF_8));
                }
                default -> { // any scalar value: ASCII, BMP or beyond, raw or escaped
                    int codePoint = switch (random.nextInt(3)) {
                        case 0 -> 0x20 + random.nextInt(0x5F);
                        case 1 -> nonSurrogate(0x80 + random.nextInt(0xFF80));
                        default -> 0x10000 + random.nextInt(0x100000);
                    };
                    String text = Character.toString(codePoint);
                    string.append(text);
                    if (codePoint == '"' || codePoint == '\\' || random.nextBoolean()) {
                        text.chars().forEach(unit -> escape(body, (char) unit));
                    } else {
                        body.writeBytes(text.getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return new Spelled(string.toString(), body.toByteArray(), invalid);
    }

    private static int nonSurrogate(int codePoint) {
        return Character.isSurrogate((char) codePoint) ? codePoint - 0x800 : codePoint;
    }

    private static void escape(ByteArrayOutputStream body, char unit) {
        String escape = switch (unit) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            default -> String.format("\\u%04x", (int) unit);
        };
        body.writeBytes(escape.getBytes(StandardCharsets.US_ASCII));
    }
}

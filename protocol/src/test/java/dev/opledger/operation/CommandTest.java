package dev.opledger.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The payload hash is part of the device protocol: the iOS app computes the same bytes. These
 * pin the canonical form to RFC 8785's own examples.
 */
class CommandTest {

    private static Command parse(String json) {
        return Command.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String canonical(String arguments) {
        String json = parse("{\"type\":\"t\",\"arguments\":" + arguments + "}").canonicalJson();
        return json.substring("{\"arguments\":".length(), json.length() - ",\"type\":\"t\"}".length());
    }

    // RFC 8785, appendix B: IEEE 754 values and their canonical serialisation
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0 | 0",
        "-0 | 0",
        "5e-324 | 5e-324",
        "-5e-324 | -5e-324",
        "1.7976931348623157e308 | 1.7976931348623157e+308",
        "-1.7976931348623157e308 | -1.7976931348623157e+308",
        "9007199254740992 | 9007199254740992",
        "9007199254740994 | 9007199254740994",
        "295147905179352825856 | 295147905179352830000",
        "9.999999999999997e22 | 9.999999999999997e+22",
        "1e23 | 1e+23",
        "1.0000000000000001e23 | 1.0000000000000001e+23",
        "999999999999999700000 | 999999999999999700000",
        "999999999999999900000 | 999999999999999900000",
        "1e21 | 1e+21",
        "0.000001 | 0.000001",
        "9.999999999999997e-7 | 9.999999999999997e-7",
        "1e-7 | 1e-7",
        "333333333.3333333 | 333333333.3333333",
        "4.50 | 4.5",
        "2e-3 | 0.002",
        "0.000001000 | 0.000001"
    })
    void serialisesNumbersAsRfc8785Says(String written, String expected) {
        assertThat(canonical("{\"n\":" + written + "}")).isEqualTo("{\"n\":" + expected + "}");
    }

    // RFC 8785, section 3.2.3: members sorted by their UTF-16 code units
    @Test
    void sortsMembersByUtf16CodeUnits() {
        String arguments = "{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\",\"\\ufb33\":\"Hebrew Letter Dalet "
                + "With Dagesh\",\"1\":\"One\",\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":\"Control\","
                + "\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}";

        assertThat(canonical(arguments)).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
                + "\"\ud83d\ude00\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
    }

    // RFC 8785, section 3.2.2.2: only the mandatory escapes, lowercase hex for control characters
    @Test
    void escapesStringsMinimally() {
        assertThat(canonical("{\"s\":\"\\u00e9\\/\\u001f\\n\\\"\\\\\"}")).isEqualTo("{\"s\":\"\u00e9/\\u001f\\n\\\"\\\\\"}");
    }

    @Test
    void hashesTheCanonicalForm() {
        var command = parse("{ \"type\": \"checkout\", \"arguments\": { \"sku\": \"A-1\", \"quantity\": 2 } }");

        assertThat(command.type()).isEqualTo("checkout");
        assertThat(command.canonicalJson()).isEqualTo("{\"arguments\":{\"quantity\":2,\"sku\":\"A-1\"},\"type\":\"checkout\"}");
        // printf '%s' '{"arguments":{"quantity":2,"sku":"A-1"},"type":"checkout"}' | sha256sum
        assertThat(command.payloadHash().hex())
                .isEqualTo("30b6a3a449247b234e7eda2c266b2dda81b78d05a4c755cd92e4dfaf99ef2962");
    }

    @Test
    void equalCommandsHashEquallyWhateverTheirFormatting() {
        var compact = parse("{\"type\":\"checkout\",\"arguments\":{\"a\":1,\"b\":[true,null,\"x\"]}}");
        var spaced = parse(" {\n\"arguments\" : { \"b\" : [ true , null , \"\\u0078\" ] , \"a\" : 1.0 } ,\"type\":\"checkout\"}\n");

        assertThat(spaced.payloadHash()).isEqualTo(compact.payloadHash());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "{", "[]", "null", "\"x\"", "{\"type\":\"t\"}", "{\"arguments\":{}}",
        "{\"type\":\"\",\"arguments\":{}}", "{\"type\":\"9lives\",\"arguments\":{}}", "{\"type\":true,\"arguments\":{}}",
        "{\"type\":\"t\",\"arguments\":{},\"more\":1}", "{\"type\":\"t\",\"arguments\":{\"a\":1,\"a\":1}}",
        "{\"type\":\"t\",\"arguments\":{}}{}", "{\"type\":\"t\",\"arguments\":{\"n\":1e309}}"
    })
    void refusesWhatIsNotACommand(String body) {
        assertThatThrownBy(() -> parse(body)).isInstanceOf(MalformedCommandException.class)
                .hasMessageNotContaining("Exception");
    }

    @Test
    void refusesDeepNestingBeforeCanonicalising() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);

        assertThatThrownBy(() -> parse("{\"type\":\"t\",\"arguments\":{\"d\":" + deep + "}}"))
                .isInstanceOf(MalformedCommandException.class);
    }

    // The bug of issue 8: "x" + U+D800 was hashed as "x?", so the second body replayed the first's operation.
    @Test
    void refusesALoneSurrogateInsteadOfHashingItAsAQuestionMark() {
        assertThatThrownBy(() -> parse("{\"type\":\"t\",\"arguments\":{\"s\":\"x\\ud800\"}}"))
                .isInstanceOf(MalformedCommandException.class).hasMessageContaining("/arguments/s")
                .hasMessageContaining("lone surrogate");
        assertThat(parse("{\"type\":\"t\",\"arguments\":{\"s\":\"x?\"}}").canonicalJson())
                .isEqualTo("{\"arguments\":{\"s\":\"x?\"},\"type\":\"t\"}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"x\\ud800", "x\\udc00", "\\udc00\\ud800", "\\ud83dx", "\\ude00\\ud83d", "a\\ud800\\ud800"})
    void refusesEscapedLoneSurrogatesInValuesAndNames(String escaped) {
        assertThatThrownBy(() -> parse("{\"type\":\"t\",\"arguments\":{\"s\":\"" + escaped + "\"}}"))
                .isInstanceOf(MalformedCommandException.class);
        assertThatThrownBy(() -> parse("{\"type\":\"t\",\"arguments\":{\"" + escaped + "\":1}}"))
                .isInstanceOf(MalformedCommandException.class).hasMessageContaining("/arguments/");
        assertThatThrownBy(() -> parse("{\"type\":\"t\",\"arguments\":{\"a\":[1,{\"b\":\"" + escaped + "\"}]}}"))
                .isInstanceOf(MalformedCommandException.class).hasMessageContaining("/arguments/a/1/b");
    }

    /** Bytes a lenient decoder replaces (with U+FFFD, or Jackson's overlong C0 AF with '/'). */
    @ParameterizedTest
    @ValueSource(strings = {"c0af", "c1bf", "e080af", "f08080af", "f4908080", "ff", "fe", "c3", "e282", "eda080", "edbfbf", "f880808080", "80", "c328"})
    void refusesInvalidUtf8(String hex) {
        byte[] before = "{\"type\":\"t\",\"arguments\":{\"s\":\"x".getBytes(StandardCharsets.UTF_8);
        byte[] bad = java.util.HexFormat.of().parseHex(hex);
        byte[] after = "\"}}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[before.length + bad.length + after.length];
        System.arraycopy(before, 0, body, 0, before.length);
        System.arraycopy(bad, 0, body, before.length, bad.length);
        System.arraycopy(after, 0, body, before.length + bad.length, after.length);

        assertThatThrownBy(() -> Command.parse(body)).isInstanceOf(MalformedCommandException.class)
                .hasMessageContaining("UTF-8").hasMessageContaining("byte " + before.length);
    }

    // jsonb cannot store U+0000: refused for every operation type, not only where a schema would catch it
    @Test
    void refusesUPlus0000InValuesAndNames() {
        assertThatThrownBy(() -> parse("{\"type\":\"t\",\"arguments\":{\"recipient\":\"a\\u0000b\"}}"))
                .isInstanceOf(MalformedCommandException.class).hasMessageContaining("/arguments/recipient")
                .hasMessageContaining("U+0000");
        assertThatThrownBy(() -> parse("{\"type\":\"t\",\"arguments\":{\"a\\u0000\":1}}"))
                .isInstanceOf(MalformedCommandException.class).hasMessageContaining("/arguments/a\\u0000");
    }

    @Test
    void keepsSurrogatePairsAndNonCharactersExactly() {
        String escaped = parse("{\"type\":\"t\",\"arguments\":{\"s\":\"\\ud83d\\ude00\\ufffd\\uffff\"}}").canonicalJson();
        String raw = parse("{\"type\":\"t\",\"arguments\":{\"s\":\"\ud83d\ude00\ufffd\uffff\"}}").canonicalJson();

        assertThat(escaped).isEqualTo(raw).isEqualTo("{\"arguments\":{\"s\":\"\ud83d\ude00\ufffd\uffff\"},\"type\":\"t\"}");
    }
}

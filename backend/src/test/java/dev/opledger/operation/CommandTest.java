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
}

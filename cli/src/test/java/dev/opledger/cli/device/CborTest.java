package dev.opledger.cli.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 8949 Appendix A's examples of the types App Attest uses. */
class CborTest {

    @ParameterizedTest
    @CsvSource({
        "0, 00", "23, 17", "24, 1818", "100, 1864", "1000, 1903e8", "1000000, 1a000f4240",
        "1000000000000, 1b000000e8d4a51000", "-1, 20", "-10, 29", "-100, 3863", "-1000, 3903e7"})
    void encodesIntegersInTheirShortestForm(long value, String hex) {
        assertThat(HexFormat.of().formatHex(Cbor.encode(value))).isEqualTo(hex);
    }

    @ParameterizedTest
    @CsvSource({"'', 60", "a, 6161", "IETF, 6449455446", "ü, 62c3bc"})
    void encodesTextAsUtf8(String value, String hex) {
        assertThat(HexFormat.of().formatHex(Cbor.encode(value))).isEqualTo(hex);
    }

    @Test
    void encodesByteStringsArraysAndMapsInOrderWithDefiniteLengths() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put("a", 1);
        map.put("b", List.of(2, 3));

        assertThat(HexFormat.of().formatHex(Cbor.encode(new byte[] {1, 2, 3, 4}))).isEqualTo("4401020304");
        assertThat(HexFormat.of().formatHex(Cbor.encode(List.of(1, 2, 3)))).isEqualTo("83010203");
        assertThat(HexFormat.of().formatHex(Cbor.encode(map))).isEqualTo("a26161016162820203");
        assertThat(HexFormat.of().formatHex(Cbor.encode(new byte[300]))).startsWith("59012c");
    }
}

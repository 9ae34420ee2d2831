package dev.opledger.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OperationIdTest {

    @Test
    void normalisesToLowercase() {
        assertThat(OperationId.parse("8E7B6D9E-2F4C-4A7E-9B1D-3C5E7F9A1B2C"))
                .hasToString("8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c");
    }

    @Test
    void givesItsBytesInNetworkOrder() {
        var id = OperationId.parse("00112233-4455-6677-8899-aabbccddeeff");

        assertThat(HexFormat.of().formatHex(id.bytes())).isEqualTo("00112233445566778899aabbccddeeff");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1-1-1-1-1", "8e7b6d9e2f4c4a7e9b1d3c5e7f9a1b2c", "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2",
        "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2cc", "8e7b6d9e-2f4c-4a7e-9b1d_3c5e7f9a1b2c",
        "00000000-0000-0000-0000-000000000000", " 8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2"})
    void refusesAnythingButTheTextForm(String text) {
        assertThatThrownBy(() -> OperationId.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }
}

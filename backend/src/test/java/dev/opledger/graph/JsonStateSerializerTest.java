package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.bsc.langgraph4j.state.AgentState;
import org.junit.jupiter.api.Test;

/** The JSON form nodes see after langgraph4j clones the state, and a resume reads back. */
class JsonStateSerializerTest {

    record Line(String sku, int units, BigDecimal price) {
    }

    record Order(String id, List<Line> lines, boolean giftWrap) {
    }

    private final JsonStateSerializer<AgentState> serializer = new JsonStateSerializer<>(AgentState::new);

    @Test
    void recordsComeBackAsMapsOfTheirComponents() throws Exception {
        var order = new Order("o-1", List.of(new Line("Ä-1", 2, new BigDecimal("9.90"))), true);

        AgentState clone = serializer.cloneObject(Map.of("order", order));

        assertThat(clone.data()).isEqualTo(Map.of("order", Map.of("id", "o-1", "giftWrap", true,
                "lines", List.of(Map.of("sku", "Ä-1", "units", 2, "price", new BigDecimal("9.90"))))));
    }

    @Test
    void numbersComeBackAsIntegersByMagnitudeAndExactDecimals() throws Exception {
        var big = new BigInteger("123456789012345678901234567890");

        AgentState clone = serializer.cloneObject(Map.of("int", 7, "long", 1L << 40, "huge", big,
                "double", 0.1, "amount", new BigDecimal("1234.50")));

        assertThat(clone.data()).containsEntry("int", 7).containsEntry("long", 1L << 40).containsEntry("huge", big)
                .containsEntry("double", new BigDecimal("0.1")).containsEntry("amount", new BigDecimal("1234.50"));
    }

    @Test
    void unicodeAndControlCharactersSurvive() throws Exception {
        String text = "Zoë 🚀 日本語 \"q\" \\ \n\t end";

        assertThat(serializer.cloneObject(Map.of("text", text)).data()).containsEntry("text", text);
    }

    @Test
    void aValueJacksonCannotWriteFailsTheClone() {
        assertThatThrownBy(() -> serializer.cloneObject(Map.of("thread", new Object())))
                .isInstanceOf(IOException.class).hasMessageContaining("not JSON-writable");
    }

    @Test
    void declaresJson() {
        assertThat(serializer.contentType()).isEqualTo("application/json");
    }
}

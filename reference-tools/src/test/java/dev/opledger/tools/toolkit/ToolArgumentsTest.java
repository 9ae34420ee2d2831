package dev.opledger.tools.toolkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {

    private static final ToolDescriptor TOOL = new ToolDescriptor("t", "T", "test",
            InputSchema.forOperationStep().required("count", Map.of("type", "integer"))
                    .optional("amount", Map.of("type", "number")),
            ToolHints.readOnly(), RepeatClass.READ_ONLY);

    @Test
    void readsTypedValues() {
        var arguments = ToolArguments.parse(
                Map.of("operationId", "op", "stepKey", "s", "count", 3.0, "amount", new BigDecimal("1.50")), TOOL);

        assertThat(arguments.operationId()).isEqualTo("op");
        assertThat(arguments.positiveInteger("count")).isEqualTo(3);
        assertThat(arguments.decimal("amount")).isEqualByComparingTo("1.5");
        assertThat(arguments.optionalText("missing")).isEmpty();
    }

    @Test
    void refusesWhatTheSchemaDoesNotAllow() {
        assertThatThrownBy(() -> ToolArguments.parse(Map.of("operationId", "op", "count", 1), TOOL))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("'stepKey' is required");
        assertThatThrownBy(() -> ToolArguments.parse(
                Map.of("operationId", "op", "stepKey", "s", "count", 1, "colour", "red"), TOOL))
                .hasMessageContaining("unknown argument 'colour'");
        var fractional = ToolArguments.parse(Map.of("operationId", "op", "stepKey", "s", "count", 1.5), TOOL);
        assertThatThrownBy(() -> fractional.integer("count")).hasMessageContaining("must be an integer");
        var zero = ToolArguments.parse(Map.of("operationId", "op", "stepKey", "s", "count", 0), TOOL);
        assertThatThrownBy(() -> zero.positiveInteger("count")).hasMessageContaining("greater than 0");
    }
}

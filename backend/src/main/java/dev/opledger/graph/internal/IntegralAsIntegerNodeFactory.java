package dev.opledger.graph.internal;

import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ValueNode;

/** Makes a decimal with no fractional part ({@code 1e+30}, {@code 4.0}) an integer node. */
final class IntegralAsIntegerNodeFactory extends JsonNodeFactory {

    @Override
    public ValueNode numberNode(@Nullable BigDecimal value) {
        if (value != null && (value.signum() == 0 || value.stripTrailingZeros().scale() <= 0)) {
            return numberNode(value.toBigIntegerExact());
        }
        return super.numberNode(value);
    }
}

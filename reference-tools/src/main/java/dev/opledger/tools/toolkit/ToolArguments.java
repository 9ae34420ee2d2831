package dev.opledger.tools.toolkit;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The arguments of one call, read by name with the checks of the input schema: a wrong type or a
 * missing value is an {@link InvalidArgumentException} naming the argument.
 */
public final class ToolArguments {

    private final Map<String, ?> values;

    private ToolArguments(Map<String, ?> values) {
        this.values = values;
    }

    /** Checks that only the schema's properties are present and the required ones are. */
    public static ToolArguments parse(@Nullable Map<String, ?> raw, ToolDescriptor tool) {
        Map<String, ?> values = raw == null ? Map.of() : raw;
        Object properties = tool.inputSchema().get("properties");
        if (properties instanceof Map<?, ?> known) {
            for (String name : values.keySet()) {
                if (!known.containsKey(name)) {
                    throw new InvalidArgumentException("unknown argument '" + name + "'");
                }
            }
        }
        var arguments = new ToolArguments(values);
        if (tool.inputSchema().get("required") instanceof Iterable<?> required) {
            for (Object name : required) {
                arguments.value(name.toString());
            }
        }
        return arguments;
    }

    public String operationId() {
        return text("operationId");
    }

    public String stepKey() {
        return text("stepKey");
    }

    /** All arguments as sent, for the effect log's digest. */
    public Map<String, ?> asMap() {
        return values;
    }

    public String text(String name) {
        if (value(name) instanceof String text && !text.isBlank()) {
            return text;
        }
        throw new InvalidArgumentException("'" + name + "' must be a non-empty string");
    }

    public Optional<String> optionalText(String name) {
        return values.get(name) == null ? Optional.empty() : Optional.of(text(name));
    }

    public long integer(String name) {
        if (value(name) instanceof Number number) {
            BigDecimal decimal = decimalOf(number);
            if (decimal.stripTrailingZeros().scale() <= 0) {
                try {
                    return decimal.longValueExact();
                } catch (ArithmeticException e) {
                    // falls through to the message below
                }
            }
        }
        throw new InvalidArgumentException("'" + name + "' must be an integer");
    }

    public long positiveInteger(String name) {
        long value = integer(name);
        if (value <= 0) {
            throw new InvalidArgumentException("'" + name + "' must be greater than 0");
        }
        return value;
    }

    public BigDecimal decimal(String name) {
        if (value(name) instanceof Number number) {
            return decimalOf(number);
        }
        throw new InvalidArgumentException("'" + name + "' must be a number");
    }

    private Object value(String name) {
        Object value = values.get(name);
        if (value == null) {
            throw new InvalidArgumentException("'" + name + "' is required");
        }
        return value;
    }

    private static BigDecimal decimalOf(Number number) {
        return number instanceof BigDecimal decimal ? decimal : new BigDecimal(number.toString());
    }
}

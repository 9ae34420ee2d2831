package dev.opledger.checkout;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A checkout command's arguments, read from the stored command (see
 * {@code operation-types/checkout.schema.json}). The API checks them against the schema before
 * the claim; this reading checks again what the graph relies on, so an operation claimed before
 * that check fails with a reason instead of half-running.
 */
record CheckoutArguments(String sku, int quantity, BigDecimal amount, String currency, String recipient,
        Optional<String> loyaltyAccount, Optional<String> shippingAddress, boolean giftWrap) {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /**
     * @param command the whole command, {@code {"type":"checkout","arguments":{…}}}
     * @throws IllegalArgumentException naming what is missing or wrong
     */
    static CheckoutArguments fromCommand(String command) {
        Map<String, Object> root;
        try {
            root = JSON.readValue(command, OBJECT);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the command is not a JSON object");
        }
        if (!(root.get("arguments") instanceof Map<?, ?> arguments)) {
            throw new IllegalArgumentException("the command has no arguments object");
        }
        BigDecimal quantity = number(arguments, "quantity");
        if (quantity.stripTrailingZeros().scale() > 0 || quantity.compareTo(BigDecimal.ONE) < 0
                || quantity.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("'quantity' must be a whole number of at least 1");
        }
        BigDecimal amount = number(arguments, "amount");
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException("'amount' must be greater than 0");
        }
        return new CheckoutArguments(text(arguments, "sku"), quantity.intValueExact(), amount,
                text(arguments, "currency"), text(arguments, "recipient"),
                Optional.ofNullable(optionalText(arguments, "loyaltyAccount")),
                Optional.ofNullable(optionalText(arguments, "shippingAddress")), flag(arguments, "giftWrap"));
    }

    /** The graph's input: the arguments under their own names. */
    Map<String, Object> asState() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put(CheckoutState.SKU, sku);
        state.put(CheckoutState.QUANTITY, quantity);
        state.put(CheckoutState.AMOUNT, amount);
        state.put(CheckoutState.CURRENCY, currency);
        state.put(CheckoutState.RECIPIENT, recipient);
        loyaltyAccount.ifPresent(account -> state.put(CheckoutState.LOYALTY_ACCOUNT, account));
        shippingAddress.ifPresent(address -> state.put(CheckoutState.SHIPPING_ADDRESS, address));
        if (giftWrap) {
            state.put(CheckoutState.GIFT_WRAP, true);
        }
        return state;
    }

    private static String text(Map<?, ?> arguments, String name) {
        String text = optionalText(arguments, name);
        if (text == null) {
            throw new IllegalArgumentException("'" + name + "' is required");
        }
        return text;
    }

    private static @Nullable String optionalText(Map<?, ?> arguments, String name) {
        Object value = arguments.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof String text && !text.isBlank()) {
            return text;
        }
        throw new IllegalArgumentException("'" + name + "' must be a non-empty string");
    }

    private static boolean flag(Map<?, ?> arguments, String name) {
        Object value = arguments.get(name);
        if (value == null || value instanceof Boolean) {
            return Boolean.TRUE.equals(value);
        }
        throw new IllegalArgumentException("'" + name + "' must be true or false");
    }

    private static BigDecimal number(Map<?, ?> arguments, String name) {
        if (arguments.get(name) instanceof Number number) {
            return number instanceof BigDecimal decimal ? decimal : new BigDecimal(number.toString());
        }
        throw new IllegalArgumentException("'" + name + "' must be a number");
    }
}

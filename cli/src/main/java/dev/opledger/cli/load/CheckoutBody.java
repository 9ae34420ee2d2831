package dev.opledger.cli.load;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The body every load client submits: the shared contract's minimal valid {@code checkout}
 * (reserve, capture, receipt), its amount under the default approval limit of 500.00 so that no
 * operation stops for a person.
 */
final class CheckoutBody {

    static final String JSON = "{\"type\":\"checkout\",\"arguments\":{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,"
            + "\"amount\":49.90,\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}}";

    static final String TYPE = "checkout";

    /** The same arguments as {@link #JSON}, for a {@code tools/call} of the tool {@code checkout}. */
    static final Map<String, Object> ARGUMENTS = Map.of("sku", "SKU-ESPRESSO", "quantity", 1,
            "amount", new BigDecimal("49.90"), "currency", "EUR", "recipient", "ann@example.com");

    private CheckoutBody() {
    }

    static byte[] bytes() {
        return JSON.getBytes(StandardCharsets.UTF_8);
    }
}

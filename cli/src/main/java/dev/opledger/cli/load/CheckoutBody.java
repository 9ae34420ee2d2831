package dev.opledger.cli.load;

import java.nio.charset.StandardCharsets;

/**
 * The body every load client submits: the shared contract's minimal valid {@code checkout}
 * (reserve, capture, receipt), its amount under the default approval limit of 500.00 so that no
 * operation stops for a person.
 */
final class CheckoutBody {

    static final String JSON = "{\"type\":\"checkout\",\"arguments\":{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,"
            + "\"amount\":49.90,\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}}";

    private CheckoutBody() {
    }

    static byte[] bytes() {
        return JSON.getBytes(StandardCharsets.UTF_8);
    }
}

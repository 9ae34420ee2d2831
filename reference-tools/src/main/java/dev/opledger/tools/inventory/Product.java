package dev.opledger.tools.inventory;

import java.math.BigDecimal;
import java.util.Map;

/** A product and its stock on hand. */
record Product(String sku, String name, BigDecimal unitPrice, String currency, long onHand) {

    Map<String, Object> asResult() {
        return Map.of("sku", sku, "name", name, "unitPrice", unitPrice, "currency", currency, "onHand", onHand);
    }
}

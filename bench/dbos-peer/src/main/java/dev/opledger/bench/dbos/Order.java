package dev.opledger.bench.dbos;

import java.math.BigDecimal;

/** The benchmark's checkout, as the node's {@code checkout} arguments have it. */
public record Order(String sku, int quantity, BigDecimal amount, String currency, String recipient) {
}

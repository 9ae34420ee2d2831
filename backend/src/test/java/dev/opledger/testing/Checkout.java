package dev.opledger.testing;

/**
 * Valid {@code checkout} commands (schema {@code operation-types/checkout.schema.json}), for tests
 * whose commands must pass the API's type check. To make another payload for the same operation,
 * vary the quantity (1 to 100) or the amount (at most two decimals).
 */
public final class Checkout {

    public static final String TYPE = "checkout";

    private Checkout() {
    }

    /** {@code {"sku":"SKU-ESPRESSO","quantity":1,"amount":49.90,"currency":"EUR","recipient":"ann@example.com"}} */
    public static String arguments() {
        return arguments(1, "49.90");
    }

    public static String arguments(int quantity) {
        return arguments(quantity, "49.90");
    }

    /** @param amount a JSON number, written as given (so {@code "12.50"} stays two decimals in the body) */
    public static String arguments(int quantity, String amount) {
        return "{\"sku\":\"SKU-ESPRESSO\",\"quantity\":" + quantity + ",\"amount\":" + amount
                + ",\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}";
    }

    /** The whole body, {@code {"type":"checkout","arguments":…}}. */
    public static String command() {
        return ApiClient.command(TYPE, arguments());
    }

    public static String command(int quantity) {
        return ApiClient.command(TYPE, arguments(quantity));
    }

    public static String command(int quantity, String amount) {
        return ApiClient.command(TYPE, arguments(quantity, amount));
    }
}

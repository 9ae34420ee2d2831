package dev.opledger.checkout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CheckoutArgumentsTest {

    @Test
    void readsTheArgumentsOfTheStoredCommandWithTheAmountExact() {
        var arguments = CheckoutArguments.fromCommand("""
                {"type": "checkout", "arguments": {"sku": "SKU-ESPRESSO", "quantity": 2, "amount": 49.90,
                 "currency": "EUR", "recipient": "ann@example.com", "shippingAddress": "1 Main St"}}""");

        assertThat(arguments).isEqualTo(new CheckoutArguments("SKU-ESPRESSO", 2, new BigDecimal("49.90"), "EUR",
                "ann@example.com", Optional.empty(), Optional.of("1 Main St"), false));
        assertThat(arguments.asState()).containsOnlyKeys("sku", "quantity", "amount", "currency", "recipient",
                "shippingAddress");
    }

    @Test
    void aGiftWrapIsAskedForWithTrueOnly() {
        var wrapped = CheckoutArguments.fromCommand("""
                {"type": "checkout", "arguments": {"sku": "SKU-MUG", "quantity": 1, "amount": 12, "currency": "EUR",
                 "recipient": "ann@example.com", "giftWrap": true}}""");
        var unwrapped = CheckoutArguments.fromCommand("""
                {"type": "checkout", "arguments": {"sku": "SKU-MUG", "quantity": 1, "amount": 12, "currency": "EUR",
                 "recipient": "ann@example.com", "giftWrap": false}}""");

        assertThat(wrapped.asState()).containsEntry("giftWrap", true);
        assertThat(unwrapped.asState()).doesNotContainKey("giftWrap");
        assertThatThrownBy(() -> CheckoutArguments.fromCommand("""
                {"type": "checkout", "arguments": {"sku": "SKU-MUG", "quantity": 1, "amount": 12, "currency": "EUR",
                 "recipient": "ann@example.com", "giftWrap": "yes"}}""")).hasMessageContaining("'giftWrap' must be true or false");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "{\"sku\":\"A-1\",\"quantity\":2}                                                              | 'amount' must be a number",
            "{\"sku\":\"A-1\",\"quantity\":1.5,\"amount\":1,\"currency\":\"EUR\",\"recipient\":\"a\"}      | 'quantity' must be a whole number",
            "{\"sku\":\"A-1\",\"quantity\":1,\"amount\":0,\"currency\":\"EUR\",\"recipient\":\"a\"}        | 'amount' must be greater than 0",
            "{\"sku\":\"\",\"quantity\":1,\"amount\":5,\"currency\":\"EUR\",\"recipient\":\"a\"}           | 'sku' must be a non-empty string",
            "{\"sku\":\"A-1\",\"quantity\":1,\"amount\":5,\"currency\":\"EUR\"}                            | 'recipient' is required"})
    void namesWhatCannotBeRun(String arguments, String message) {
        assertThatThrownBy(() -> CheckoutArguments.fromCommand("{\"type\":\"checkout\",\"arguments\":" + arguments + "}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}

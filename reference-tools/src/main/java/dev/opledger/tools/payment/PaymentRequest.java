package dev.opledger.tools.payment;

import dev.opledger.tools.toolkit.InvalidArgumentException;
import dev.opledger.tools.toolkit.ToolArguments;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Pattern;

/** The business arguments of capture_payment: what a repeat with the same key must match. */
record PaymentRequest(BigDecimal amount, String currency, Optional<String> idempotencyKey) {

    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

    static PaymentRequest from(ToolArguments arguments) {
        BigDecimal amount = arguments.decimal("amount");
        if (amount.signum() <= 0 || amount.stripTrailingZeros().scale() > 4) {
            throw new InvalidArgumentException("'amount' must be greater than 0 with at most 4 decimals");
        }
        String currency = arguments.text("currency");
        if (!CURRENCY.matcher(currency).matches()) {
            throw new InvalidArgumentException("'currency' must be an ISO 4217 code such as EUR");
        }
        return new PaymentRequest(amount, currency, arguments.optionalText("idempotencyKey"));
    }

    boolean matches(Payment payment) {
        return amount.compareTo(payment.amount()) == 0 && currency.equals(payment.currency());
    }
}

package dev.opledger.tools.payment;

import dev.opledger.tools.toolkit.InvalidArgumentException;
import dev.opledger.tools.toolkit.ToolArguments;
import java.util.Optional;
import java.util.UUID;

/** The business arguments of refund_payment: what a repeat with the same key must match. */
record RefundRequest(UUID paymentId, Optional<String> idempotencyKey) {

    static RefundRequest from(ToolArguments arguments) {
        String paymentId = arguments.text("paymentId");
        try {
            return new RefundRequest(UUID.fromString(paymentId), arguments.optionalText("idempotencyKey"));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException("'paymentId' must be a payment's id (a UUID)");
        }
    }

    boolean matches(Refund refund) {
        return paymentId.equals(refund.paymentId());
    }
}

package dev.opledger.tools.payment;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.Map;

/** Keyed: with an idempotency key a repeat returns the committed payment; without one it captures again. */
class CapturePaymentTool implements ReferenceTool {

    static final String NAME = "capture_payment";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Capture payment",
            "Captures an amount in a currency for an operation. With an idempotencyKey, a repeat returns "
                    + "the committed payment (same paymentId) and the same key with another amount or "
                    + "currency is an error.",
            InputSchema.forOperationStep()
                    .required("amount", Map.of("type", "number", "exclusiveMinimum", 0,
                            "description", "At most 4 decimals"))
                    .required("currency", Map.of("type", "string", "pattern", "^[A-Z]{3}$",
                            "description", "ISO 4217, e.g. EUR"))
                    .optional("idempotencyKey", InputSchema.text("Makes a repeat return the first payment")),
            ToolHints.write(false, false), RepeatClass.KEYED)
            .withMeta(ToolDescriptor.IDEMPOTENCY_KEY_ARGUMENT, "idempotencyKey");

    private final Payments payments;

    CapturePaymentTool(Payments payments) {
        this.payments = payments;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        return payments.capture(PaymentRequest.from(arguments), arguments);
    }
}

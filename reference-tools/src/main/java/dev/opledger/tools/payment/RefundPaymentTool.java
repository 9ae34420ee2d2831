package dev.opledger.tools.payment;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;

/**
 * Keyed: gives a captured payment's whole amount back, like release_inventory for a reservation. A
 * payment is refunded at most once, so a repeat never makes a second effect (idempotent,
 * destructive); with the same idempotency key a repeat gets the committed refund back, where
 * without one it is refused with {@code ALREADY_REFUNDED}.
 */
class RefundPaymentTool implements ReferenceTool {

    static final String NAME = "refund_payment";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Refund payment",
            "Refunds a captured payment in full. A payment is refunded once; with an idempotencyKey a repeat "
                    + "returns the committed refund (same refundId), without one a repeat is refused "
                    + "(ALREADY_REFUNDED), and the same key for another payment is an error.",
            InputSchema.forOperationStep()
                    .required("paymentId", InputSchema.text("The payment, as capture_payment returned it"))
                    .optional("idempotencyKey", InputSchema.text("Makes a repeat return the first refund")),
            ToolHints.write(true, true), RepeatClass.KEYED)
            .withMeta(ToolDescriptor.IDEMPOTENCY_KEY_ARGUMENT, "idempotencyKey");

    private final Payments payments;

    RefundPaymentTool(Payments payments) {
        this.payments = payments;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        return payments.refund(RefundRequest.from(arguments), arguments);
    }
}

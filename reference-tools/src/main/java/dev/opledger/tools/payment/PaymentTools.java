package dev.opledger.tools.payment;

import org.springframework.context.annotation.Import;

/**
 * The parts of capture_payment and refund_payment, for the application to import. Not a component, so an application
 * that scans {@code dev.opledger} never picks the tools up by accident.
 */
@Import({Payments.class, CapturePaymentTool.class, RefundPaymentTool.class})
public final class PaymentTools {

    PaymentTools() {
    }
}

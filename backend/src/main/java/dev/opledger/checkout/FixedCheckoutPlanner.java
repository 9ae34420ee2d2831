package dev.opledger.checkout;

import java.util.Map;

/**
 * The checkout's fixed route: reserve → (approval when needed) → capture → (points with a
 * loyalty account and at least one whole currency unit) → (shipping with an address) → (wrap
 * when a gift wrap is asked for) → receipt; a rejection goes to release instead. A step after
 * the reservation that failed (its tool refused, or a person gave it up) is compensated: refund
 * when a payment was captured, then release, then the end — each compensation once, whether it
 * succeeded or failed itself.
 */
final class FixedCheckoutPlanner implements CheckoutPlanner {

    @Override
    public CheckoutStep next(CheckoutStep finished, Map<String, Object> data) {
        var state = new CheckoutState(data);
        if (finished == CheckoutStep.END) {
            throw new IllegalArgumentException("nothing follows the end");
        }
        if (state.failed() || finished == CheckoutStep.REFUND) {
            return compensation(state);
        }
        return switch (finished) {
            case RESERVE -> state.needsApproval() ? CheckoutStep.APPROVAL : CheckoutStep.CAPTURE;
            case APPROVAL -> state.approved() ? CheckoutStep.CAPTURE : CheckoutStep.RELEASE;
            case CAPTURE -> state.pointsToCredit() > 0 ? CheckoutStep.POINTS : afterPoints(state);
            case POINTS -> afterPoints(state);
            case SHIPPING -> afterShipping(state);
            case WRAP -> CheckoutStep.RECEIPT;
            case RECEIPT, RELEASE, REFUND, END -> CheckoutStep.END;
        };
    }

    /** What is left to undo, money first: the refund, then the release; each runs once. */
    private static CheckoutStep compensation(CheckoutState state) {
        if (state.paymentId().isPresent() && !state.refundTried()) {
            return CheckoutStep.REFUND;
        }
        if (state.reservationId().isPresent() && !state.releaseTried()) {
            return CheckoutStep.RELEASE;
        }
        return CheckoutStep.END;
    }

    private static CheckoutStep afterPoints(CheckoutState state) {
        return state.shippingAddress().isPresent() ? CheckoutStep.SHIPPING : afterShipping(state);
    }

    private static CheckoutStep afterShipping(CheckoutState state) {
        return state.giftWrap() ? CheckoutStep.WRAP : CheckoutStep.RECEIPT;
    }
}

package dev.opledger.checkout;

import java.util.Map;

/**
 * The checkout's fixed route: reserve → (approval when needed) → capture → (points with a
 * loyalty account and at least one whole currency unit) → (shipping with an address) → (wrap
 * when a gift wrap is asked for) → receipt; a rejection goes to release instead.
 */
final class FixedCheckoutPlanner implements CheckoutPlanner {

    @Override
    public CheckoutStep next(CheckoutStep finished, Map<String, Object> data) {
        var state = new CheckoutState(data);
        return switch (finished) {
            case RESERVE -> state.needsApproval() ? CheckoutStep.APPROVAL : CheckoutStep.CAPTURE;
            case APPROVAL -> state.approved() ? CheckoutStep.CAPTURE : CheckoutStep.RELEASE;
            case CAPTURE -> state.pointsToCredit() > 0 ? CheckoutStep.POINTS : afterPoints(state);
            case POINTS -> afterPoints(state);
            case SHIPPING -> afterShipping(state);
            case WRAP -> CheckoutStep.RECEIPT;
            case RECEIPT, RELEASE -> CheckoutStep.END;
            case END -> throw new IllegalArgumentException("nothing follows the end");
        };
    }

    private static CheckoutStep afterPoints(CheckoutState state) {
        return state.shippingAddress().isPresent() ? CheckoutStep.SHIPPING : afterShipping(state);
    }

    private static CheckoutStep afterShipping(CheckoutState state) {
        return state.giftWrap() ? CheckoutStep.WRAP : CheckoutStep.RECEIPT;
    }
}

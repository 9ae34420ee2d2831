package dev.opledger.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The route the planner takes, step by step, as the graph's edges ask it. */
class FixedCheckoutPlannerTest {

    private final FixedCheckoutPlanner planner = new FixedCheckoutPlanner();

    private static Map<String, Object> checkout(String amount, String... optional) {
        Map<String, Object> state = new HashMap<>(Map.of("sku", "SKU-ESPRESSO", "quantity", 1,
                "amount", new BigDecimal(amount), "currency", "EUR", "recipient", "ann@example.com"));
        for (int i = 0; i < optional.length; i += 2) {
            state.put(optional[i], optional[i + 1]);
        }
        return state;
    }

    private List<CheckoutStep> route(Map<String, Object> state, boolean needsApproval, Boolean approved) {
        state.put("needsApproval", needsApproval);
        if (approved != null) {
            state.put("approval", Map.of("approved", approved, "actor", "admin"));
        }
        List<CheckoutStep> route = new ArrayList<>(List.of(CheckoutStep.RESERVE));
        while (route.getLast() != CheckoutStep.END) {
            route.add(planner.next(route.getLast(), state));
        }
        return route;
    }

    @Test
    void theMinimalCheckoutReservesCapturesAndSendsTheReceipt() {
        assertThat(route(checkout("49.90"), false, null)).containsExactly(CheckoutStep.RESERVE, CheckoutStep.CAPTURE,
                CheckoutStep.RECEIPT, CheckoutStep.END);
    }

    @Test
    void aLoyaltyAccountAndAnAddressAddPointsAndShippingBeforeTheReceipt() {
        assertThat(route(checkout("49.90", "loyaltyAccount", "ann", "shippingAddress", "1 Main St"), false, null))
                .containsExactly(CheckoutStep.RESERVE, CheckoutStep.CAPTURE, CheckoutStep.POINTS, CheckoutStep.SHIPPING,
                        CheckoutStep.RECEIPT, CheckoutStep.END);
    }

    @Test
    void aGiftWrapComesAfterShippingAndBeforeTheReceipt() {
        Map<String, Object> state = checkout("49.90", "shippingAddress", "1 Main St");
        state.put("giftWrap", true);

        assertThat(route(state, false, null)).containsExactly(CheckoutStep.RESERVE, CheckoutStep.CAPTURE,
                CheckoutStep.SHIPPING, CheckoutStep.WRAP, CheckoutStep.RECEIPT, CheckoutStep.END);
    }

    @Test
    void lessThanOneWholeUnitEarnsNoPoints() {
        assertThat(route(checkout("0.99", "loyaltyAccount", "ann"), false, null))
                .doesNotContain(CheckoutStep.POINTS);
    }

    @Test
    void anApprovedCheckoutCapturesAfterTheApproval() {
        assertThat(route(checkout("750.00"), true, true)).containsExactly(CheckoutStep.RESERVE, CheckoutStep.APPROVAL,
                CheckoutStep.CAPTURE, CheckoutStep.RECEIPT, CheckoutStep.END);
    }

    @Test
    void aRejectedCheckoutReleasesItsReservationAndEnds() {
        assertThat(route(checkout("750.00", "loyaltyAccount", "ann"), true, false)).containsExactly(
                CheckoutStep.RESERVE, CheckoutStep.APPROVAL, CheckoutStep.RELEASE, CheckoutStep.END);
    }
}

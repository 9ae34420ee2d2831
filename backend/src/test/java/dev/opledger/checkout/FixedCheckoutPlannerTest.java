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

    /**
     * Walks the route as the graph would, each step writing into the state what it writes when
     * its effect lands — except {@code failing}, which writes the failure — and the
     * compensations, which write a failure of their own when listed in {@code compensationsFailing}.
     */
    private List<CheckoutStep> routeFailingAt(CheckoutStep failing, Map<String, Object> state,
            CheckoutStep... compensationsFailing) {
        state.put("needsApproval", false);
        List<CheckoutStep> failingCompensations = List.of(compensationsFailing);
        List<CheckoutStep> route = new ArrayList<>();
        CheckoutStep step = CheckoutStep.RESERVE;
        while (step != CheckoutStep.END) {
            route.add(step);
            if (step == failing) {
                state.put("failure", Map.of("step", step.key(), "reason", step.key() + ": refused"));
            } else {
                switch (step) {
                    case RESERVE -> state.put("reservation", Map.of("reservationId", "r-1"));
                    case CAPTURE -> state.put("payment", Map.of("paymentId", "p-1"));
                    case REFUND, RELEASE -> state.put(step.key(), failingCompensations.contains(step)
                            ? Map.of("failed", step.key() + ": refused") : Map.of(step.key() + "Id", "x-1"));
                    default -> state.put(step.key(), Map.of("done", true));
                }
            }
            step = planner.next(step, state);
            assertThat(route).as("no step runs twice").doesNotContain(step);
        }
        route.add(step);
        return route;
    }

    private static Map<String, Object> everyStep() {
        Map<String, Object> state = checkout("49.90", "loyaltyAccount", "ann", "shippingAddress", "1 Main St");
        state.put("giftWrap", true);
        return state;
    }

    @Test
    void aRefusedCaptureReleasesTheReservationAndEnds() {
        assertThat(routeFailingAt(CheckoutStep.CAPTURE, everyStep())).containsExactly(CheckoutStep.RESERVE,
                CheckoutStep.CAPTURE, CheckoutStep.RELEASE, CheckoutStep.END);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = CheckoutStep.class, names = {"POINTS", "SHIPPING", "WRAP", "RECEIPT"})
    void aStepFailingAfterTheCaptureRefundsThenReleasesAndEnds(CheckoutStep failing) {
        List<CheckoutStep> route = routeFailingAt(failing, everyStep());

        assertThat(route).endsWith(failing, CheckoutStep.REFUND, CheckoutStep.RELEASE, CheckoutStep.END);
        assertThat(route.subList(0, route.indexOf(failing)))
                .as("the route up to the failure is the usual one").doesNotContain(CheckoutStep.REFUND, CheckoutStep.RELEASE);
    }

    @Test
    void aFailedRefundStillReleasesAndAFailedReleaseStillEnds() {
        assertThat(routeFailingAt(CheckoutStep.RECEIPT, checkout("49.90"), CheckoutStep.REFUND, CheckoutStep.RELEASE))
                .containsExactly(CheckoutStep.RESERVE, CheckoutStep.CAPTURE, CheckoutStep.RECEIPT, CheckoutStep.REFUND,
                        CheckoutStep.RELEASE, CheckoutStep.END);
    }

    @Test
    void aFailureAfterTheCompensationsRanGoesToTheEndNotBackToThem() {
        Map<String, Object> state = checkout("49.90");
        state.put("reservation", Map.of("reservationId", "r-1"));
        state.put("payment", Map.of("paymentId", "p-1"));
        state.put("failure", Map.of("step", "receipt", "reason", "receipt: given up"));

        assertThat(planner.next(CheckoutStep.RECEIPT, state)).isEqualTo(CheckoutStep.REFUND);
        state.put("refund", Map.of("refundId", "f-1"));
        assertThat(planner.next(CheckoutStep.REFUND, state)).isEqualTo(CheckoutStep.RELEASE);
        state.put("release", Map.of("releaseId", "l-1"));
        assertThat(planner.next(CheckoutStep.RELEASE, state)).isEqualTo(CheckoutStep.END);
        // asked again for a step already past (as a resumed run never does, but a planner may be asked twice)
        assertThat(planner.next(CheckoutStep.RECEIPT, state)).isEqualTo(CheckoutStep.END);
    }

    @Test
    void aRejectedCheckoutWhoseReleaseFailedEnds() {
        Map<String, Object> state = checkout("750.00");
        state.put("approval", Map.of("approved", false, "actor", "admin"));
        state.put("release", Map.of("failed", "release: refused"));

        assertThat(planner.next(CheckoutStep.RELEASE, state)).isEqualTo(CheckoutStep.END);
    }
}

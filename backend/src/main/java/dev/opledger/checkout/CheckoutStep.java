package dev.opledger.checkout;

import org.bsc.langgraph4j.StateGraph;

/**
 * The checkout's steps. Each is a node of its graph, named by {@link #key()}, which is also the
 * step key of the effect it makes (the effect gateway's {@code (operationId, stepKey)}), so a
 * step that runs again finds its own record.
 */
public enum CheckoutStep {
    /** reserve_inventory (keyed). */
    RESERVE("reserve"),
    /** No effect: waits for a person's decision when the amount is over the approval limit. */
    APPROVAL("approval"),
    /** capture_payment (keyed); only when no approval was needed or it was approved. */
    CAPTURE("capture"),
    /** adjust_points (check-then-write, checked with get_points); with a loyalty account only. */
    POINTS("points"),
    /** set_shipping_address (idempotent); with a shipping address only. */
    SHIPPING("shipping"),
    /**
     * wrap_gift (keyed, long-running: its server answers with a task of the MCP tasks extension,
     * which the gateway stores and polls); with {@code giftWrap: true} only.
     */
    WRAP("wrap"),
    /** send_message (never-repeat): the receipt. */
    RECEIPT("receipt"),
    /**
     * refund_payment (keyed, by the payment's id): a compensation, when a step after a successful
     * capture failed; before the release.
     */
    REFUND("refund"),
    /**
     * release_inventory (keyed): the reservation goes back, after a rejection or, as a
     * compensation, after any step after the reservation failed.
     */
    RELEASE("release"),
    /** The graph's end. */
    END(StateGraph.END);

    private final String key;

    CheckoutStep(String key) {
        this.key = key;
    }

    /** The graph node's id and the effect's step key. */
    public String key() {
        return key;
    }

    static CheckoutStep ofKey(String key) {
        for (CheckoutStep step : values()) {
            if (step.key.equals(key)) {
                return step;
            }
        }
        throw new IllegalArgumentException("no checkout step '" + key + "'");
    }
}

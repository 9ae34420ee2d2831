package dev.opledger.checkout;

import dev.opledger.effect.EffectReviews;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Optional;
import org.bsc.langgraph4j.state.AgentState;

/**
 * The checkout graph's state, read by name: the command's arguments and what each step
 * recorded. Values come back in the JSON form of {@code JsonStateSerializer} (numbers as
 * {@code Integer} or {@code BigDecimal}, objects as maps), as a resumed run reads them. A step's
 * result here is a copy for the steps after it; the effect gateway's record is the truth, and a
 * step that runs again gets its result from there.
 */
final class CheckoutState extends AgentState {

    static final String SKU = "sku";
    static final String QUANTITY = "quantity";
    static final String AMOUNT = "amount";
    static final String CURRENCY = "currency";
    static final String RECIPIENT = "recipient";
    static final String LOYALTY_ACCOUNT = "loyaltyAccount";
    static final String SHIPPING_ADDRESS = "shippingAddress";
    static final String GIFT_WRAP = "giftWrap";
    /** Set by reserve: whether the amount was over the approval limit when the run began. */
    static final String NEEDS_APPROVAL = "needsApproval";
    /** {@code {approved, actor, reason?}}: the person's decision. */
    static final String APPROVAL = "approval";
    static final String RESERVATION = "reservation";
    static final String PAYMENT = "payment";
    static final String POINTS = "points";
    static final String SHIPPING = "shipping";
    static final String WRAP = "wrap";
    static final String RECEIPT = "receipt";
    static final String RELEASE = "release";
    static final String REFUND = "refund";
    /**
     * {@code {step, reason}}: a step after the reservation failed (refused, or given up by a
     * person); the compensations run and the operation ends FAILED with this reason.
     */
    static final String FAILURE = "failure";
    /** In a compensation's result ({@link #REFUND}, {@link #RELEASE}): why it failed itself. */
    static final String FAILED = "failed";

    CheckoutState(Map<String, Object> data) {
        super(data);
    }

    String sku() {
        return text(SKU);
    }

    int quantity() {
        return decimal(QUANTITY).intValueExact();
    }

    BigDecimal amount() {
        return decimal(AMOUNT);
    }

    /**
     * The amount as people read money: at least two decimals. The stored command is canonical
     * JSON (RFC 8785), which writes 49.90 as 49.9 and 750.00 as 750.
     */
    String amountText() {
        return money(amount());
    }

    static String money(BigDecimal amount) {
        return (amount.scale() < 2 ? amount.setScale(2) : amount).toPlainString();
    }

    String currency() {
        return text(CURRENCY);
    }

    String recipient() {
        return text(RECIPIENT);
    }

    Optional<String> loyaltyAccount() {
        return value(LOYALTY_ACCOUNT);
    }

    Optional<String> shippingAddress() {
        return value(SHIPPING_ADDRESS);
    }

    boolean giftWrap() {
        return this.<Boolean>value(GIFT_WRAP).orElse(false);
    }

    /** One point per whole currency unit, with a loyalty account; 0 without one. */
    int pointsToCredit() {
        return loyaltyAccount().isEmpty() ? 0 : amount().setScale(0, RoundingMode.DOWN).intValueExact();
    }

    boolean needsApproval() {
        return this.<Boolean>value(NEEDS_APPROVAL).orElse(false);
    }

    Optional<Map<String, Object>> approval() {
        return value(APPROVAL);
    }

    boolean approved() {
        return approval().map(decision -> Boolean.TRUE.equals(decision.get("approved"))).orElse(false);
    }

    boolean rejected() {
        return approval().map(decision -> Boolean.FALSE.equals(decision.get("approved"))).orElse(false);
    }

    Optional<String> reservationId() {
        return idIn(RESERVATION, "reservationId");
    }

    Optional<String> paymentId() {
        return idIn(PAYMENT, "paymentId");
    }

    /** The failure the compensations run for, if a step after the reservation failed. */
    Optional<String> failure() {
        return idIn(FAILURE, "reason");
    }

    boolean failed() {
        return failure().isPresent();
    }

    /** The refund ran (it gave the money back, or failed itself: it is not tried again). */
    boolean refundTried() {
        return value(REFUND).isPresent();
    }

    /** The release ran (it put the stock back, or failed itself: it is not tried again). */
    boolean releaseTried() {
        return value(RELEASE).isPresent();
    }

    /** Why the refund failed, if it ran and did. */
    Optional<String> refundFailure() {
        return idIn(REFUND, FAILED);
    }

    /** Why the release failed, if it ran and did. */
    Optional<String> releaseFailure() {
        return idIn(RELEASE, FAILED);
    }

    /** The tool answered with the message's id, or a person confirmed the message went out (its id unknown). */
    boolean receiptSent() {
        return idIn(RECEIPT, "messageId").isPresent() || idIn(RECEIPT, EffectReviews.CONFIRMED_BY).isPresent();
    }

    private Optional<String> idIn(String key, String id) {
        return this.<Map<String, Object>>value(key).map(result -> result.get(id)).map(Object::toString);
    }

    private String text(String key) {
        return this.<String>value(key).orElseThrow(() -> new IllegalStateException("the checkout state has no " + key));
    }

    private BigDecimal decimal(String key) {
        Number number = this.<Number>value(key)
                .orElseThrow(() -> new IllegalStateException("the checkout state has no " + key));
        return number instanceof BigDecimal decimal ? decimal : new BigDecimal(number.toString());
    }
}

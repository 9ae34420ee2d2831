package dev.opledger.bench.dbos;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.workflow.Workflow;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The three steps the benchmark's checkout runs in opledger (reserve, capture, receipt: no
 * loyalty account, no shipping address, an amount under the approval limit), each a DBOS step
 * that makes one MCP {@code tools/call} with the arguments the node's effect gateway sends: the
 * step's own arguments, {@code operationId} (here the workflow id), {@code stepKey}, and for the
 * keyed tools {@code idempotencyKey = operationId:stepKey}. DBOS records each step's output in its
 * system database and, on recovery, re-runs a step whose output it had not recorded.
 */
public class CheckoutWorkflow implements Checkout {

    private final DBOS dbos;
    private final ReferenceTools tools;

    public CheckoutWorkflow(DBOS dbos, ReferenceTools tools) {
        this.dbos = dbos;
        this.tools = tools;
    }

    @Override
    @Workflow(name = "checkout")
    public Receipt checkout(Order order) {
        String operationId = DBOS.workflowId();
        Map<String, Object> reservation = dbos.runStep(() -> tools.call("reserve_inventory",
                keyed(operationId, "reserve", Map.of("sku", order.sku(), "quantity", order.quantity()))), "reserve");
        // the node's command is canonical JSON (RFC 8785): 49.90 reaches the tool as 49.9
        BigDecimal amount = order.amount().stripTrailingZeros();
        Map<String, Object> payment = dbos.runStep(() -> tools.call("capture_payment",
                keyed(operationId, "capture", Map.of("amount", amount, "currency", order.currency()))), "capture");
        String paymentId = required(payment, "paymentId");
        Map<String, Object> message = dbos.runStep(() -> tools.call("send_message",
                plain(operationId, "receipt", Map.of("to", order.recipient(), "text", text(order, paymentId)))), "receipt");
        return new Receipt(required(reservation, "reservationId"), paymentId, required(message, "messageId"));
    }

    /** The node's receipt text (SendReceiptNode), word for word. */
    static String text(Order order, String paymentId) {
        BigDecimal amount = order.amount().scale() < 2 ? order.amount().setScale(2) : order.amount();
        return "Thank you for your order: " + order.quantity() + " x " + order.sku() + ", " + amount.toPlainString()
                + " " + order.currency() + " paid (payment " + paymentId + ").";
    }

    static Map<String, Object> keyed(String operationId, String stepKey, Map<String, Object> arguments) {
        Map<String, Object> all = plain(operationId, stepKey, arguments);
        all.put("idempotencyKey", operationId + ":" + stepKey);
        return all;
    }

    static Map<String, Object> plain(String operationId, String stepKey, Map<String, Object> arguments) {
        Map<String, Object> all = new LinkedHashMap<>(arguments);
        all.put("operationId", operationId);
        all.put("stepKey", stepKey);
        return all;
    }

    private static String required(Map<String, Object> result, String name) {
        if (result.get(name) instanceof String value) {
            return value;
        }
        throw new IllegalStateException("the tool answered without " + name + ": " + result.keySet());
    }
}

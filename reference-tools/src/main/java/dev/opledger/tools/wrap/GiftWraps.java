package dev.opledger.tools.wrap;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** Gift wraps, in the server's own schema. */
class GiftWraps {

    private final JdbcClient jdbc;
    private final EffectLog effects;

    GiftWraps(JdbcClient jdbc, EffectLog effects) {
        this.jdbc = jdbc;
        this.effects = effects;
    }

    /** Makes the wrap and logs the effect, in the transaction that completes the wrap's task. */
    @Transactional(propagation = Propagation.MANDATORY)
    ToolOutcome wrap(ToolArguments arguments) {
        UUID id = UUID.randomUUID();
        String orderId = arguments.text("orderId");
        String sku = arguments.text("sku");
        long quantity = arguments.positiveInteger("quantity");
        jdbc.sql("""
                INSERT INTO reference_tools.gift_wrap (wrap_id, order_id, sku, quantity, operation_id, step_key)
                VALUES (?, ?, ?, ?, ?, ?)""")
                .params(id, orderId, sku, quantity, arguments.operationId(), arguments.stepKey())
                .update();
        effects.record(WrapGiftTool.NAME, arguments, arguments.optionalText("idempotencyKey").orElse(null),
                id.toString());
        return new ToolOutcome.Success(Map.of("wrapId", id.toString(), "orderId", orderId, "sku", sku,
                "quantity", quantity), "Wrapped " + quantity + " × " + sku + " of order " + orderId + " (wrap " + id + ")");
    }
}

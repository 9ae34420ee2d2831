package dev.opledger.tools.inventory;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

/** Products, their stock and reservations, in the server's own schema. */
class Inventory {

    private final JdbcClient jdbc;
    private final EffectLog effects;

    Inventory(JdbcClient jdbc, EffectLog effects) {
        this.jdbc = jdbc;
        this.effects = effects;
    }

    Optional<Product> product(String sku) {
        return jdbc.sql("SELECT * FROM reference_tools.product WHERE sku = ?").param(sku).query(Product.class)
                .optional();
    }

    /**
     * Reserves stock once per idempotency key. Calls with one key are serialised by a
     * transaction-scoped advisory lock, so a concurrent repeat waits and then finds the committed
     * reservation.
     */
    @Transactional
    ToolOutcome reserve(ReservationRequest request, ToolArguments arguments) {
        Optional<Reservation> existing = request.idempotencyKey().flatMap(this::lockedByKey);
        if (existing.isPresent()) {
            return request.matches(existing.get())
                    ? existing.get().asOutcome(true)
                    : new ToolOutcome.Failure("IDEMPOTENCY_KEY_REUSED", "idempotency key '"
                            + request.idempotencyKey().orElseThrow() + "' was used for another reservation ("
                            + existing.get().quantity() + " x " + existing.get().sku() + ")");
        }
        if (product(request.sku()).isEmpty()) {
            return new ToolOutcome.Failure("UNKNOWN_SKU", "no product with sku '" + request.sku() + "'");
        }
        int taken = jdbc.sql("""
                UPDATE reference_tools.product SET on_hand = on_hand - ? WHERE sku = ? AND on_hand >= ?""")
                .params(request.quantity(), request.sku(), request.quantity())
                .update();
        if (taken == 0) {
            return new ToolOutcome.Failure("INSUFFICIENT_STOCK", "not enough stock of '" + request.sku() + "' for "
                    + request.quantity());
        }
        UUID id = UUID.randomUUID();
        Reservation reservation = jdbc.sql("""
                INSERT INTO reference_tools.reservation
                    (reservation_id, sku, quantity, idempotency_key, operation_id, step_key)
                VALUES (?, ?, ?, ?, ?, ?)
                RETURNING *""")
                .params(id, request.sku(), request.quantity(), request.idempotencyKey().orElse(null),
                        arguments.operationId(), arguments.stepKey())
                .query(Reservation.class)
                .single();
        effects.record(ReserveInventoryTool.NAME, arguments, request.idempotencyKey().orElse(null), id.toString());
        return reservation.asOutcome(false);
    }

    private Optional<Reservation> lockedByKey(String idempotencyKey) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")
                .param("reserve_inventory:" + idempotencyKey)
                .query()
                .listOfRows();
        return jdbc.sql("SELECT * FROM reference_tools.reservation WHERE idempotency_key = ?")
                .param(idempotencyKey)
                .query(Reservation.class)
                .optional();
    }
}

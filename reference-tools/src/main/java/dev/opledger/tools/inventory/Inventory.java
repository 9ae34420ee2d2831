package dev.opledger.tools.inventory;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

/** Products, their stock, reservations and their releases, in the server's own schema. */
class Inventory {

    private final JdbcClient jdbc;
    private final EffectLog effects;

    Inventory(JdbcClient jdbc, EffectLog effects) {
        this.jdbc = jdbc;
        this.effects = effects;
    }

    Optional<Product> product(String sku) {
        return jdbc.sql("SELECT * FROM reference_tools.product WHERE sku = ?").param(sku).query(Inventory::product)
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
                .query(Inventory::reservation)
                .single();
        effects.record(ReserveInventoryTool.NAME, arguments, request.idempotencyKey().orElse(null), id.toString());
        return reservation.asOutcome(false);
    }

    /**
     * Releases a reservation once: the reservation's row lock serialises releases of one
     * reservation, and an advisory lock per key serialises repeats with one key.
     */
    @Transactional
    ToolOutcome release(ReleaseRequest request, ToolArguments arguments) {
        Optional<Release> existing = request.idempotencyKey().flatMap(this::releaseLockedByKey);
        if (existing.isPresent()) {
            return request.matches(existing.get())
                    ? existing.get().asOutcome(true)
                    : new ToolOutcome.Failure("IDEMPOTENCY_KEY_REUSED", "idempotency key '"
                            + request.idempotencyKey().orElseThrow() + "' was used to release reservation "
                            + existing.get().reservationId());
        }
        Optional<Reservation> reservation = jdbc.sql(
                        "SELECT * FROM reference_tools.reservation WHERE reservation_id = ? FOR UPDATE")
                .param(request.reservationId())
                .query(Inventory::reservation)
                .optional();
        if (reservation.isEmpty()) {
            return new ToolOutcome.Failure("UNKNOWN_RESERVATION", "no reservation " + request.reservationId());
        }
        Optional<UUID> released = jdbc.sql(
                        "SELECT release_id FROM reference_tools.reservation_release WHERE reservation_id = ?")
                .param(request.reservationId())
                .query((row, n) -> row.getObject(1, UUID.class))
                .optional();
        if (released.isPresent()) {
            return new ToolOutcome.Failure("ALREADY_RELEASED", "reservation " + request.reservationId()
                    + " was released already (release " + released.get() + ")");
        }
        jdbc.sql("UPDATE reference_tools.product SET on_hand = on_hand + ? WHERE sku = ?")
                .params(reservation.get().quantity(), reservation.get().sku())
                .update();
        UUID id = UUID.randomUUID();
        Release release = jdbc.sql("""
                INSERT INTO reference_tools.reservation_release
                    (release_id, reservation_id, sku, quantity, idempotency_key, operation_id, step_key)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                RETURNING *""")
                .params(id, request.reservationId(), reservation.get().sku(), reservation.get().quantity(),
                        request.idempotencyKey().orElse(null), arguments.operationId(), arguments.stepKey())
                .query(Inventory::release)
                .single();
        effects.record(ReleaseInventoryTool.NAME, arguments, request.idempotencyKey().orElse(null), id.toString());
        return release.asOutcome(false);
    }

    private Optional<Release> releaseLockedByKey(String idempotencyKey) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")
                .param("release_inventory:" + idempotencyKey)
                .query()
                .listOfRows();
        return jdbc.sql("SELECT * FROM reference_tools.reservation_release WHERE idempotency_key = ?")
                .param(idempotencyKey)
                .query(Inventory::release)
                .optional();
    }

    private Optional<Reservation> lockedByKey(String idempotencyKey) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")
                .param("reserve_inventory:" + idempotencyKey)
                .query()
                .listOfRows();
        return jdbc.sql("SELECT * FROM reference_tools.reservation WHERE idempotency_key = ?")
                .param(idempotencyKey)
                .query(Inventory::reservation)
                .optional();
    }

    // Columns read by name with the types PgJDBC converts to directly: Spring's DataClassRowMapper
    // asked for camelCase names and Instant first, and the driver threw a PSQLException for each.
    private static Product product(ResultSet row, int n) throws SQLException {
        return new Product(row.getString("sku"), row.getString("name"), row.getBigDecimal("unit_price"),
                row.getString("currency"), row.getLong("on_hand"));
    }

    private static Reservation reservation(ResultSet row, int n) throws SQLException {
        return new Reservation(row.getObject("reservation_id", UUID.class), row.getString("sku"),
                row.getLong("quantity"), row.getString("idempotency_key"), row.getString("operation_id"),
                row.getString("step_key"), row.getTimestamp("created_at").toInstant());
    }

    private static Release release(ResultSet row, int n) throws SQLException {
        return new Release(row.getObject("release_id", UUID.class), row.getObject("reservation_id", UUID.class),
                row.getString("sku"), row.getLong("quantity"), row.getString("idempotency_key"),
                row.getString("operation_id"), row.getString("step_key"), row.getTimestamp("released_at").toInstant());
    }
}

package dev.opledger.tools.payment;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

/** Captured payments and their refunds, in the server's own schema. */
class Payments {

    private final JdbcClient jdbc;
    private final EffectLog effects;

    Payments(JdbcClient jdbc, EffectLog effects) {
        this.jdbc = jdbc;
        this.effects = effects;
    }

    /** Captures once per idempotency key; calls with one key are serialised by an advisory lock. */
    @Transactional
    ToolOutcome capture(PaymentRequest request, ToolArguments arguments) {
        Optional<Payment> existing = request.idempotencyKey().flatMap(this::lockedByKey);
        if (existing.isPresent()) {
            return request.matches(existing.get())
                    ? existing.get().asOutcome(true)
                    : new ToolOutcome.Failure("IDEMPOTENCY_KEY_REUSED", "idempotency key '"
                            + request.idempotencyKey().orElseThrow() + "' was used for another payment ("
                            + existing.get().amount().stripTrailingZeros().toPlainString() + " "
                            + existing.get().currency() + ")");
        }
        UUID id = UUID.randomUUID();
        Payment payment = jdbc.sql("""
                INSERT INTO reference_tools.payment
                    (payment_id, amount, currency, idempotency_key, operation_id, step_key)
                VALUES (?, ?, ?, ?, ?, ?)
                RETURNING *""")
                .params(id, request.amount(), request.currency(), request.idempotencyKey().orElse(null),
                        arguments.operationId(), arguments.stepKey())
                .query(Payments::payment)
                .single();
        effects.record(CapturePaymentTool.NAME, arguments, request.idempotencyKey().orElse(null), id.toString());
        return payment.asOutcome(false);
    }

    /**
     * Refunds a payment once: the payment's row lock serialises refunds of one payment, and an
     * advisory lock per key serialises repeats with one key.
     */
    @Transactional
    ToolOutcome refund(RefundRequest request, ToolArguments arguments) {
        Optional<Refund> existing = request.idempotencyKey().flatMap(this::refundLockedByKey);
        if (existing.isPresent()) {
            return request.matches(existing.get())
                    ? existing.get().asOutcome(true)
                    : new ToolOutcome.Failure("IDEMPOTENCY_KEY_REUSED", "idempotency key '"
                            + request.idempotencyKey().orElseThrow() + "' was used to refund payment "
                            + existing.get().paymentId());
        }
        Optional<Payment> payment = jdbc.sql("SELECT * FROM reference_tools.payment WHERE payment_id = ? FOR UPDATE")
                .param(request.paymentId())
                .query(Payments::payment)
                .optional();
        if (payment.isEmpty()) {
            return new ToolOutcome.Failure("UNKNOWN_PAYMENT", "no payment " + request.paymentId());
        }
        Optional<UUID> refunded = jdbc.sql("SELECT refund_id FROM reference_tools.payment_refund WHERE payment_id = ?")
                .param(request.paymentId())
                .query((row, n) -> row.getObject(1, UUID.class))
                .optional();
        if (refunded.isPresent()) {
            return new ToolOutcome.Failure("ALREADY_REFUNDED", "payment " + request.paymentId()
                    + " was refunded already (refund " + refunded.get() + ")");
        }
        UUID id = UUID.randomUUID();
        Refund refund = jdbc.sql("""
                INSERT INTO reference_tools.payment_refund
                    (refund_id, payment_id, amount, currency, idempotency_key, operation_id, step_key)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                RETURNING *""")
                .params(id, request.paymentId(), payment.get().amount(), payment.get().currency(),
                        request.idempotencyKey().orElse(null), arguments.operationId(), arguments.stepKey())
                .query(Payments::refund)
                .single();
        effects.record(RefundPaymentTool.NAME, arguments, request.idempotencyKey().orElse(null), id.toString());
        return refund.asOutcome(false);
    }

    private Optional<Refund> refundLockedByKey(String idempotencyKey) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")
                .param("refund_payment:" + idempotencyKey)
                .query()
                .listOfRows();
        return jdbc.sql("SELECT * FROM reference_tools.payment_refund WHERE idempotency_key = ?")
                .param(idempotencyKey)
                .query(Payments::refund)
                .optional();
    }

    private Optional<Payment> lockedByKey(String idempotencyKey) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")
                .param("capture_payment:" + idempotencyKey)
                .query()
                .listOfRows();
        return jdbc.sql("SELECT * FROM reference_tools.payment WHERE idempotency_key = ?")
                .param(idempotencyKey)
                .query(Payments::payment)
                .optional();
    }

    // Columns read by name with the types PgJDBC converts to directly: Spring's DataClassRowMapper
    // asked for camelCase names and Instant first, and the driver threw a PSQLException for each.
    private static Payment payment(ResultSet row, int n) throws SQLException {
        return new Payment(row.getObject("payment_id", UUID.class), row.getBigDecimal("amount"),
                row.getString("currency"), row.getString("idempotency_key"), row.getString("operation_id"),
                row.getString("step_key"), row.getTimestamp("captured_at").toInstant());
    }

    private static Refund refund(ResultSet row, int n) throws SQLException {
        return new Refund(row.getObject("refund_id", UUID.class), row.getObject("payment_id", UUID.class),
                row.getBigDecimal("amount"), row.getString("currency"), row.getString("idempotency_key"),
                row.getString("operation_id"), row.getString("step_key"), row.getTimestamp("refunded_at").toInstant());
    }
}

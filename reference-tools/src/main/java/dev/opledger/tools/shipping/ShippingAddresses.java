package dev.opledger.tools.shipping;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.toolkit.ToolArguments;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

/** One address per order, in the server's own schema. */
class ShippingAddresses {

    private final JdbcClient jdbc;
    private final EffectLog effects;

    ShippingAddresses(JdbcClient jdbc, EffectLog effects) {
        this.jdbc = jdbc;
        this.effects = effects;
    }

    /** Sets the order's address; writes (and logs an effect) only when it differs from the stored one. */
    @Transactional
    AddressSet set(String orderId, String address, ToolArguments arguments) {
        Optional<Instant> changedAt = jdbc.sql("""
                INSERT INTO reference_tools.shipping_address AS s (order_id, address, operation_id, step_key)
                VALUES (?, ?, ?, ?)
                ON CONFLICT (order_id) DO UPDATE
                    SET address = EXCLUDED.address, operation_id = EXCLUDED.operation_id,
                        step_key = EXCLUDED.step_key, updated_at = clock_timestamp()
                    WHERE s.address IS DISTINCT FROM EXCLUDED.address
                RETURNING updated_at""")
                .params(orderId, address, arguments.operationId(), arguments.stepKey())
                // getObject(1, Instant.class), as query(Instant.class) asks, makes PgJDBC throw first
                .query(ShippingAddresses::instant)
                .optional();
        if (changedAt.isPresent()) {
            effects.record(SetShippingAddressTool.NAME, arguments, null, orderId);
            return new AddressSet(orderId, address, true, changedAt.get());
        }
        Instant unchangedSince = jdbc.sql("SELECT updated_at FROM reference_tools.shipping_address WHERE order_id = ?")
                .param(orderId)
                .query(ShippingAddresses::instant)
                .single();
        return new AddressSet(orderId, address, false, unchangedSince);
    }

    private static Instant instant(ResultSet row, int n) throws SQLException {
        return row.getTimestamp(1).toInstant();
    }
}

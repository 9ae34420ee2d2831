package dev.opledger.tools.points;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.toolkit.ToolArguments;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

/** Point balances and their adjustments, in the server's own schema. */
class Points {

    static final int RECENT = 10;

    private final JdbcClient jdbc;
    private final EffectLog effects;

    Points(JdbcClient jdbc, EffectLog effects) {
        this.jdbc = jdbc;
        this.effects = effects;
    }

    /** Adds delta to the balance (opening the account at 0), every time it is called. */
    @Transactional
    AdjustedBalance adjust(String account, long delta, ToolArguments arguments) {
        long balance = jdbc.sql("""
                INSERT INTO reference_tools.points_account AS a (account, balance) VALUES (?, ?)
                ON CONFLICT (account) DO UPDATE
                    SET balance = a.balance + EXCLUDED.balance, updated_at = clock_timestamp()
                RETURNING balance""")
                .params(account, delta)
                .query(Long.class)
                .single();
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO reference_tools.points_adjustment (adjustment_id, account, delta, operation_id, step_key)
                VALUES (?, ?, ?, ?, ?)""")
                .params(id, account, delta, arguments.operationId(), arguments.stepKey())
                .update();
        effects.record(AdjustPointsTool.NAME, arguments, null, id.toString());
        return new AdjustedBalance(id, account, delta, balance);
    }

    @Transactional(readOnly = true)
    PointsStatement statement(String account, String operationId, String stepKey) {
        long balance = jdbc.sql("SELECT balance FROM reference_tools.points_account WHERE account = ?")
                .param(account)
                .query(Long.class)
                .optional()
                .orElse(0L);
        Optional<Adjustment> applied = jdbc.sql("""
                SELECT * FROM reference_tools.points_adjustment
                WHERE account = ? AND operation_id = ? AND step_key = ?
                ORDER BY applied_at LIMIT 1""")
                .params(account, operationId, stepKey)
                .query(Points::adjustment)
                .optional();
        List<Adjustment> recent = jdbc.sql("""
                SELECT * FROM reference_tools.points_adjustment WHERE account = ?
                ORDER BY applied_at DESC LIMIT ?""")
                .params(account, RECENT)
                .query(Points::adjustment)
                .list();
        return new PointsStatement(account, balance, applied, recent);
    }

    // Columns read by name with the types PgJDBC converts to directly: Spring's DataClassRowMapper
    // asked for camelCase names and Instant first, and the driver threw a PSQLException for each.
    private static Adjustment adjustment(ResultSet row, int n) throws SQLException {
        return new Adjustment(row.getObject("adjustment_id", UUID.class), row.getString("account"),
                row.getLong("delta"), row.getString("operation_id"), row.getString("step_key"),
                row.getTimestamp("applied_at").toInstant());
    }
}

package dev.opledger.tools.points;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.toolkit.ToolArguments;
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
                .query(Adjustment.class)
                .optional();
        List<Adjustment> recent = jdbc.sql("""
                SELECT * FROM reference_tools.points_adjustment WHERE account = ?
                ORDER BY applied_at DESC LIMIT ?""")
                .params(account, RECENT)
                .query(Adjustment.class)
                .list();
        return new PointsStatement(account, balance, applied, recent);
    }
}

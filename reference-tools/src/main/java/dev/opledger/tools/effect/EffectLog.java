package dev.opledger.tools.effect;

import dev.opledger.tools.toolkit.ToolArguments;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/** Writes an effect in the transaction that makes it; reads them back for tests and launchers. */
public class EffectLog {

    private final JdbcClient jdbc;

    EffectLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Records an effect; only inside the transaction of the effect itself, so both land or neither. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void record(String tool, ToolArguments arguments, @Nullable String idempotencyKey, String resultId) {
        jdbc.sql("""
                INSERT INTO reference_tools.effect_log
                    (tool, operation_id, step_key, idempotency_key, arguments_digest, result_id)
                VALUES (?, ?, ?, ?, ?, ?)""")
                .params(tool, arguments.operationId(), arguments.stepKey(), idempotencyKey,
                        ArgumentsDigest.of(arguments.asMap()), resultId)
                .update();
    }

    public List<Effect> all() {
        return jdbc.sql("SELECT * FROM reference_tools.effect_log ORDER BY effect_id").query(EffectLog::effect).list();
    }

    public List<Effect> ofOperation(String operationId) {
        return jdbc.sql("SELECT * FROM reference_tools.effect_log WHERE operation_id = ? ORDER BY effect_id")
                .param(operationId)
                .query(EffectLog::effect)
                .list();
    }

    public int count(String tool) {
        return jdbc.sql("SELECT count(*) FROM reference_tools.effect_log WHERE tool = ?")
                .param(tool)
                .query(Integer.class)
                .single();
    }

    public int count(String tool, String operationId, String stepKey) {
        return jdbc.sql("""
                SELECT count(*) FROM reference_tools.effect_log
                WHERE tool = ? AND operation_id = ? AND step_key = ?""")
                .params(tool, operationId, stepKey)
                .query(Integer.class)
                .single();
    }

    // Columns read by name with the types PgJDBC converts to directly: Spring's DataClassRowMapper
    // asked for camelCase names and Instant first, and the driver threw a PSQLException for each.
    private static Effect effect(ResultSet row, int n) throws SQLException {
        return new Effect(row.getLong("effect_id"), row.getString("tool"), row.getString("operation_id"),
                row.getString("step_key"), row.getString("idempotency_key"), row.getString("arguments_digest"),
                row.getString("result_id"), row.getTimestamp("created_at").toInstant());
    }
}

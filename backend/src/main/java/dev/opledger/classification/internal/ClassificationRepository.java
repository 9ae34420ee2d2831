package dev.opledger.classification.internal;

import dev.opledger.classification.ClassSource;
import dev.opledger.classification.RepeatClass;
import dev.opledger.classification.ToolClass;
import dev.opledger.mcp.ToolHints;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

@Repository
public class ClassificationRepository {

    private static final String COLUMNS = "server, tool, repeat_class, source, check_tool, reason";

    private final JdbcTemplate jdbc;

    ClassificationRepository(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<ToolClass> find(String server, String tool) {
        return jdbc.query("SELECT " + COLUMNS + " FROM tool_classification WHERE server = ? AND tool = ?",
                (row, n) -> toolClass(row), server, tool).stream().findFirst();
    }

    public List<ToolClass> all() {
        return jdbc.query("SELECT " + COLUMNS + " FROM tool_classification ORDER BY server, tool", (row, n) -> toolClass(row));
    }

    /**
     * Records a class unless one from a stronger source is there (ADMIN > PROBE > CONFIGURATION >
     * ANNOTATIONS); returns what is recorded afterwards.
     */
    public ToolClass record(ToolClass toolClass, @Nullable ToolHints hints, @Nullable String actor) {
        jdbc.update("""
                INSERT INTO tool_classification (server, tool, repeat_class, source, check_tool, reason,
                                                 read_only_hint, idempotent_hint, destructive_hint, updated_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (server, tool) DO UPDATE SET repeat_class = excluded.repeat_class, source = excluded.source,
                    check_tool = excluded.check_tool, reason = excluded.reason,
                    read_only_hint = coalesce(excluded.read_only_hint, tool_classification.read_only_hint),
                    idempotent_hint = coalesce(excluded.idempotent_hint, tool_classification.idempotent_hint),
                    destructive_hint = coalesce(excluded.destructive_hint, tool_classification.destructive_hint),
                    updated_at = now(), updated_by = excluded.updated_by
                WHERE array_position(ARRAY['ANNOTATIONS', 'CONFIGURATION', 'PROBE', 'ADMIN'], tool_classification.source)
                   <= array_position(ARRAY['ANNOTATIONS', 'CONFIGURATION', 'PROBE', 'ADMIN'], excluded.source)
                """, toolClass.server(), toolClass.tool(), toolClass.repeatClass().name(), toolClass.source().name(),
                toolClass.checkTool(), toolClass.reason(), hints == null ? null : hints.readOnly(),
                hints == null ? null : hints.idempotent(), hints == null ? null : hints.destructive(), actor);
        return find(toolClass.server(), toolClass.tool()).orElseThrow();
    }

    private static ToolClass toolClass(java.sql.ResultSet row) throws java.sql.SQLException {
        return new ToolClass(row.getString("server"), row.getString("tool"), RepeatClass.valueOf(row.getString("repeat_class")),
                ClassSource.valueOf(row.getString("source")), row.getString("check_tool"), row.getString("reason"));
    }
}

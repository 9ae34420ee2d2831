package dev.opledger.classification.internal;

import dev.opledger.classification.RepeatClass;
import dev.opledger.classification.ToolProbe;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The table tool_probe: one row per double-run probe, RUNNING until it is recorded. */
@Repository
public class ProbeRepository {

    private static final String COLUMNS = """
            id, server, tool, status, sandbox, prepare::text AS prepare, arguments::text AS arguments, first_outcome,
            first_reply, first_ms, second_outcome, second_reply, second_ms, second_run, suggested_class, explanation, evidence::text AS evidence,
            requested_by, started_at, finished_at, wall_ms, decision, decided_by, decided_at, decision_reason""";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;

    ProbeRepository(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
    }

    /**
     * Starts a probe of the tool unless one is running: a RUNNING row older than {@code stale} is
     * taken for one whose node stopped, and marked ABANDONED first. Empty when one is running.
     * The times are the clock's, not the transaction's: a probe that could start only once another
     * finished is recorded as starting after it.
     */
    public Optional<Long> start(String server, String tool, String sandbox, String prepare, String arguments,
            String actor, Duration stale) {
        return transaction.execute(status -> {
            jdbc.update("""
                    UPDATE tool_probe SET status = 'ABANDONED', finished_at = now(),
                        explanation = 'left running (its node stopped?); abandoned by the next probe of the tool'
                    WHERE server = ? AND tool = ? AND status = 'RUNNING' AND started_at < now() - ? * interval '1 millisecond'
                    """, server, tool, stale.toMillis());
            return jdbc.query("""
                    INSERT INTO tool_probe (server, tool, sandbox, prepare, arguments, requested_by, started_at)
                    VALUES (?, ?, ?, ?::jsonb, ?::jsonb, ?, clock_timestamp())
                    ON CONFLICT (server, tool) WHERE status = 'RUNNING' DO NOTHING
                    RETURNING id
                    """, (row, n) -> row.getLong(1), server, tool, sandbox, prepare, arguments, actor).stream().findFirst();
        });
    }

    /** The directory a started probe works in, and its arguments (once resolved in it). */
    public void sandbox(long id, String sandbox, String arguments) {
        jdbc.update("UPDATE tool_probe SET sandbox = ?, arguments = ?::jsonb WHERE id = ? AND status = 'RUNNING'", sandbox,
                arguments, id);
    }

    /** Records what a probe found; its suggestion, if any, waits for a person. */
    public ToolProbe finish(long id, ToolProbe.@Nullable Run first, ToolProbe.@Nullable Run second,
            ToolProbe.@Nullable SecondRun secondRun, @Nullable RepeatClass suggested, String explanation, String evidence,
            long wallMillis) {
        jdbc.update("""
                UPDATE tool_probe SET status = 'DONE', finished_at = clock_timestamp(), first_outcome = ?, first_reply = ?,
                    first_ms = ?, second_outcome = ?, second_reply = ?, second_ms = ?, second_run = ?, suggested_class = ?, explanation = ?,
                    evidence = ?::jsonb, wall_ms = ?, decision = ?
                WHERE id = ?
                """, first == null ? null : first.outcome().name(), first == null ? null : first.reply(),
                first == null ? null : first.millis(), second == null ? null : second.outcome().name(),
                second == null ? null : second.reply(), second == null ? null : second.millis(),
                secondRun == null ? null : secondRun.name(), suggested == null ? null : suggested.name(), explanation,
                evidence, wallMillis, suggested == null ? "NONE" : "OPEN", id);
        return probe(id).orElseThrow();
    }

    public Optional<ToolProbe> probe(long id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM tool_probe WHERE id = ?", (row, n) -> probe(row), id).stream()
                .findFirst();
    }

    /** The probe, locked for a decision in the caller's transaction. */
    public Optional<ToolProbe> lockForDecision(long id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM tool_probe WHERE id = ? FOR UPDATE", (row, n) -> probe(row), id)
                .stream().findFirst();
    }

    public void decide(long id, boolean accept, String actor, String reason) {
        jdbc.update("""
                UPDATE tool_probe SET decision = ?, decided_by = ?, decided_at = now(), decision_reason = ?
                WHERE id = ? AND decision = 'OPEN'
                """, accept ? "ACCEPTED" : "REJECTED", actor, reason, id);
    }

    /** The latest probe of every tool that has one. */
    public List<ToolProbe> latest() {
        return jdbc.query("SELECT DISTINCT ON (server, tool) " + COLUMNS + " FROM tool_probe ORDER BY server, tool, id DESC",
                (row, n) -> probe(row));
    }

    /** The tool's probes, the latest first. */
    public List<ToolProbe> of(String server, String tool) {
        return jdbc.query("SELECT " + COLUMNS + " FROM tool_probe WHERE server = ? AND tool = ? ORDER BY id DESC",
                (row, n) -> probe(row), server, tool);
    }

    private static ToolProbe probe(ResultSet row) throws SQLException {
        return new ToolProbe(row.getLong("id"), row.getString("server"), row.getString("tool"),
                ToolProbe.Status.valueOf(row.getString("status")), row.getString("sandbox"), row.getString("prepare"),
                row.getString("arguments"), run(row, "first"), run(row, "second"),
                row.getString("second_run") == null ? null : ToolProbe.SecondRun.valueOf(row.getString("second_run")),
                row.getString("suggested_class") == null ? null : RepeatClass.valueOf(row.getString("suggested_class")),
                row.getString("explanation"), row.getString("evidence"), row.getString("requested_by"),
                row.getTimestamp("started_at").toInstant(), instant(row.getTimestamp("finished_at")),
                (Long) row.getObject("wall_ms"), ToolProbe.Decision.valueOf(row.getString("decision")),
                row.getString("decided_by"), instant(row.getTimestamp("decided_at")), row.getString("decision_reason"));
    }

    private static ToolProbe.@Nullable Run run(ResultSet row, String which) throws SQLException {
        String outcome = row.getString(which + "_outcome");
        return outcome == null ? null
                : new ToolProbe.Run(ToolProbe.Run.Outcome.valueOf(outcome), row.getString(which + "_reply"),
                        row.getLong(which + "_ms"));
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}

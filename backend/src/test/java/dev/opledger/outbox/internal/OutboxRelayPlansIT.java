package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.LedgerOfItsOwn;
import dev.opledger.testing.PreparedSql;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * No index tells PostgreSQL where the unpublished rows are any more (issue 13: the publish marks
 * are HOT updates); the relay's statements find them from the watermark by the primary key. On
 * an outbox of 300,000 rows, analyzed or never (autovacuum off, as on some CI machines, or a new
 * database before its first ANALYZE), each statement the relay, its metrics and the console run
 * must still walk the primary key, never read the outbox sequentially: prepared, as PgJDBC
 * prepares them, and after enough executions for PostgreSQL's plan cache to choose between its
 * custom and generic plans.
 */
class OutboxRelayPlansIT {

    private static final int ROWS = 300_000;
    private static final List<Outbox> OUTBOXES = new ArrayList<>();

    /** A database with a large outbox, analyzed or never (autovacuum off, or before its first ANALYZE). */
    record Outbox(String name, LedgerOfItsOwn ledger, JdbcTemplate jdbc, long watermark) {
        @Override
        public String toString() {
            return name;
        }
    }

    @BeforeAll
    static void largeOutboxesWithAndWithoutStatistics() throws Exception {
        OUTBOXES.add(outbox("with statistics", true));
        OUTBOXES.add(outbox("never analyzed", false));
    }

    private static Outbox outbox(String name, boolean analyzed) throws Exception {
        LedgerOfItsOwn ledger = analyzed ? LedgerOfItsOwn.create().migrate()
                : LedgerOfItsOwn.create().migrate().neverAnalyzed();
        JdbcTemplate jdbc = ledger.jdbc();
        ledger.operation("plans");
        // all published a while ago but the last 40, each 500 published in one batch; stored in no
        // order of their ids, as pages freed by the purge are filled again (so PostgreSQL cannot
        // count on ids lying in the table's order)
        jdbc.update("""
                INSERT INTO outbox_event (id, operation_ref, operation_id, subject_id, sequence, type, status, published_at)
                OVERRIDING SYSTEM VALUE
                SELECT n, o.id, o.operation_id, 'plans', n, 'OperationAccepted', 'ACCEPTED',
                       CASE WHEN n <= ? - 40 THEN now() - interval '1 hour' END
                FROM operation o, generate_series(1, ?) AS n ORDER BY random()
                """, ROWS, ROWS);
        jdbc.execute("SELECT setval(pg_get_serial_sequence('outbox_event', 'id'), " + ROWS + ")");
        jdbc.update("""
                INSERT INTO outbox_publication (epoch, events, first_id, last_id, published_at)
                SELECT 1, count(*), min(id), max(id), now() - interval '1 hour' FROM outbox_event
                WHERE published_at IS NOT NULL GROUP BY id / 500
                """);
        long watermark = jdbc.queryForObject("SELECT max(id) - 100 FROM outbox_event", Long.class);
        jdbc.update("UPDATE outbox_relay SET published_below = ?, horizon_id = ?, epoch = 1 WHERE name = 'relay'",
                watermark, watermark + 90);
        if (analyzed) {
            jdbc.execute("ANALYZE");
        }
        return new Outbox(name, ledger, jdbc, watermark);
    }

    @AfterAll
    static void close() throws Exception {
        for (Outbox outbox : OUTBOXES) {
            outbox.ledger().close();
        }
    }

    record Statement(String name, String sql, String arguments) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Arguments> relayStatements() {
        return OUTBOXES.stream().flatMap(outbox -> statements().stream().map(statement -> Arguments.of(outbox, statement)))
                .toList();
    }

    static List<Statement> statements() {
        return List.of(
                new Statement("the batch's renewal and rows", OutboxRows.RENEW_AND_READ,
                        "'10000 milliseconds', 1, '10000', 500"),
                new Statement("the idle poll", OutboxRows.ANY_UNPUBLISHED, "%d"),
                new Statement("the backlog metric", OutboxRows.BACKLOG, "%d"),
                new Statement("the lag metric", OutboxRows.LAG, "%d"),
                new Statement("the console's overview", OutboxReader.OVERVIEW, "%d"),
                new Statement("the watermark's step", OutboxRows.ADVANCE, "1, 1"),
                new Statement("the purge", OutboxRows.PURGE, "'7 days', 1000, '7 days'"));
    }

    @ParameterizedTest(name = "{1}, {0}")
    @MethodSource("relayStatements")
    void walksThePrimaryKeyNotTheWholeOutbox(Outbox outbox, Statement statement) {
        JdbcTemplate jdbc = outbox.jdbc();
        String name = "plan_" + Math.abs(statement.name().hashCode());
        jdbc.execute("PREPARE " + name + " AS " + PreparedSql.numbered(statement.sql()));
        String execute = "EXECUTE " + name + "(" + statement.arguments().formatted(outbox.watermark()) + ")";
        try {
            // PostgreSQL weighs a generic plan against the custom ones after five executions
            for (int i = 0; i < 8; i++) {
                jdbc.execute("BEGIN");
                jdbc.execute(execute);
                jdbc.execute("ROLLBACK");
            }
            String plan = String.join("\n", jdbc.queryForList("EXPLAIN " + execute, String.class));
            assertThat(plan).as(statement.name() + ", " + outbox.name()).doesNotContainPattern("Seq Scan on outbox_event\\b")
                    .contains("outbox_event_pkey");
        } finally {
            jdbc.execute("DEALLOCATE " + name);
        }
    }
}

package dev.opledger.outbox.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * No index tells PostgreSQL where the unpublished rows are any more (issue 13: the publish marks
 * are HOT updates); the relay's statements find them from the watermark by the primary key. On
 * an outbox of 300,000 rows with statistics, each statement the relay, its metrics and the
 * console run must still walk the primary key, never read the outbox sequentially: prepared, as
 * PgJDBC prepares them, and after enough executions for PostgreSQL's plan cache to choose
 * between its custom and generic plans.
 */
class OutboxRelayPlansIT {

    private static final int ROWS = 300_000;
    private static Connection connection;
    private static JdbcTemplate jdbc;
    private static long watermark;

    @BeforeAll
    static void aLargeOutboxWithStatistics() throws Exception {
        LocatedDatabase database = TestDatabase.fresh();
        connection = DriverManager.getConnection(database.url(), database.username(), database.password());
        new Liquibase("db/changelog/db.changelog-master.yaml", new ClassLoaderResourceAccessor(),
                DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection)))
                .update(new Contexts(), new LabelExpression());
        connection.setAutoCommit(true); // Liquibase leaves it off: the rows must be committed before the tests roll back theirs
        jdbc = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
        jdbc.update("INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command) "
                + "VALUES ('plans', gen_random_uuid(), sha256('{}'), 'checkout', '{}')");
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
        watermark = jdbc.queryForObject("SELECT max(id) - 100 FROM outbox_event", Long.class);
        jdbc.update("UPDATE outbox_relay SET published_below = ?, horizon_id = ?, epoch = 1 WHERE name = 'relay'",
                watermark, watermark + 90);
        jdbc.execute("ANALYZE");
    }

    @AfterAll
    static void close() throws Exception {
        connection.close();
    }

    record Statement(String name, String sql, String arguments) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Statement> relayStatements() {
        return List.of(
                new Statement("the batch's rows", OutboxRows.UNPUBLISHED_ROWS, "%d, 500"),
                new Statement("the idle poll", OutboxRows.ANY_UNPUBLISHED, "%d"),
                new Statement("the backlog metric", OutboxRows.BACKLOG, "%d"),
                new Statement("the lag metric", OutboxRows.LAG, "%d"),
                new Statement("the console's overview", OutboxReader.OVERVIEW, "%d"),
                new Statement("the watermark's step", OutboxRows.ADVANCE, "1, 1"),
                new Statement("the purge", OutboxRows.PURGE, "'7 days', 1000, '7 days'"));
    }

    @ParameterizedTest
    @MethodSource("relayStatements")
    void walksThePrimaryKeyNotTheWholeOutbox(Statement statement) {
        String name = "plan_" + Math.abs(statement.name().hashCode());
        jdbc.execute("PREPARE " + name + " AS " + numbered(statement.sql()));
        String execute = "EXECUTE " + name + "(" + statement.arguments().formatted(watermark) + ")";
        try {
            // PostgreSQL weighs a generic plan against the custom ones after five executions
            for (int i = 0; i < 8; i++) {
                jdbc.execute("BEGIN");
                jdbc.execute(execute);
                jdbc.execute("ROLLBACK");
            }
            String plan = String.join("\n", jdbc.queryForList("EXPLAIN " + execute, String.class));
            assertThat(plan).as(statement.name()).doesNotContainPattern("Seq Scan on outbox_event\\b")
                    .contains("outbox_event_pkey");
        } finally {
            jdbc.execute("DEALLOCATE " + name);
        }
    }

    /** JDBC's ? placeholders as PREPARE's $1, $2, … */
    private static String numbered(String sql) {
        Matcher placeholder = Pattern.compile("\\?(?!\\?)").matcher(sql);
        var numbered = new StringBuilder();
        int n = 0;
        while (placeholder.find()) {
            placeholder.appendReplacement(numbered, "\\$" + ++n);
        }
        placeholder.appendTail(numbered);
        return numbered.toString();
    }
}

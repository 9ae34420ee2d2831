package dev.opledger.testing;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.changelog.ChangeSet;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.LiquibaseException;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * A fresh database of the test's own, migrated by the ledger's changelog (all of it, or up to a
 * changeset), on one connection: for tests of the schema and of plans, outside any node.
 */
public final class LedgerOfItsOwn implements AutoCloseable {

    private final Connection connection;
    private final Liquibase liquibase;
    private final JdbcTemplate jdbc;

    private LedgerOfItsOwn(Connection connection) throws LiquibaseException {
        this.connection = connection;
        this.liquibase = new Liquibase("db/changelog/db.changelog-master.yaml", new ClassLoaderResourceAccessor(),
                DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection)));
        this.jdbc = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
    }

    public static LedgerOfItsOwn create() throws Exception {
        LocatedDatabase database = TestDatabase.fresh();
        return new LedgerOfItsOwn(DriverManager.getConnection(database.url(), database.username(), database.password()));
    }

    /** Every changeset before {@code changeSetId}; fails when the changelog has none of that id. */
    public LedgerOfItsOwn migrateUpTo(String changeSetId) throws Exception {
        int before = liquibase.getDatabaseChangeLog().getChangeSets().stream().map(ChangeSet::getId).toList()
                .indexOf(changeSetId);
        if (before < 1) {
            throw new IllegalArgumentException("no changeset " + changeSetId + " after the first");
        }
        liquibase.update(before, new Contexts(), new LabelExpression());
        return committing();
    }

    /** Every changeset not applied yet. */
    public LedgerOfItsOwn migrate() throws Exception {
        liquibase.update(new Contexts(), new LabelExpression());
        return committing();
    }

    // Liquibase leaves autocommit off: a test's rows must be committed, not rolled back with its next transaction
    private LedgerOfItsOwn committing() throws Exception {
        connection.setAutoCommit(true);
        return this;
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    /** One operation row for events to refer to (subject {@code subject}); its id. */
    public long operation(String subject) {
        return jdbc.queryForObject("INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command) "
                + "VALUES (?, gen_random_uuid(), sha256('{}'), 'checkout', '{}') RETURNING id", Long.class, subject);
    }

    /**
     * Never analyzed from here on, whatever the server's autovacuum does (this machine's shared
     * cluster runs none): a plan keeps the sizes it was made with until the next ANALYZE.
     */
    public LedgerOfItsOwn neverAnalyzed() {
        for (String table : jdbc.queryForList(
                "SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace",
                String.class)) {
            jdbc.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = false)");
        }
        return this;
    }

    /** {@code count} new operations RUNNING under {@code owner}'s lease in epoch 1: their fences. */
    public List<Fence> running(String owner, int count) {
        return jdbc.query("""
                INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command, status,
                                       lease_owner, lease_epoch, lease_expires_at, run_count)
                SELECT 'running', gen_random_uuid(), sha256(gen_random_uuid()::text::bytea), 'checkout', '{}', 'RUNNING',
                       ?, 1, now() + interval '1 hour', 1
                FROM generate_series(1, ?)
                RETURNING operation_id
                """, (row, n) -> new Fence(new OperationId(row.getObject(1, UUID.class)), 1), owner, count);
    }

    /**
     * The ledger grown past the size its first plans were made for: {@code operations} ended
     * operations, each with three effect records and three published events.
     */
    public void grow(int operations) {
        jdbc.update("""
                WITH grown AS (
                  INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command, status, event_sequence)
                  SELECT 'grown', gen_random_uuid(), sha256(n::text::bytea), 'checkout', '{}', 'SUCCEEDED', 3
                  FROM generate_series(1, ?) AS n
                  RETURNING id, operation_id
                ), effects AS (
                  INSERT INTO effect_record (operation_ref, step_key, server, tool, repeat_class, status, arguments, calls,
                                             finished_at)
                  SELECT id, 'step-' || s, 'shop', 'send_message', 'IDEMPOTENT', 'SUCCEEDED', '{}', 1, now()
                  FROM grown, generate_series(1, 3) AS s
                )
                INSERT INTO outbox_event (operation_ref, operation_id, subject_id, sequence, type, status, published_at)
                SELECT id, operation_id, 'grown', s, 'OperationAccepted', 'ACCEPTED', now() FROM grown, generate_series(1, 3) AS s
                """, operations);
    }

    /**
     * The tables {@code action} read sequentially (how many times), in one transaction of this
     * connection, committed: PostgreSQL counts a transaction's own scans before it ends.
     */
    public Map<String, Long> sequentialReads(Runnable action) {
        jdbc.execute("BEGIN");
        try {
            action.run();
            Map<String, Long> reads = new TreeMap<>();
            jdbc.query("SELECT relname, seq_scan FROM pg_stat_xact_user_tables WHERE seq_scan > 0",
                    (RowCallbackHandler) row -> reads.put(row.getString(1), row.getLong(2)));
            return reads;
        } finally {
            jdbc.execute("COMMIT");
        }
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }
}

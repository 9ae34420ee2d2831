package dev.opledger.outbox.internal;

import dev.opledger.node.database.LocatedDatabase;
import dev.opledger.testing.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.changelog.ChangeSet;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.LiquibaseException;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * A fresh database of the test's own, migrated by the ledger's changelog (all of it, or up to a
 * changeset), on one connection: for tests of the schema and of plans, outside any node.
 */
final class LedgerOfItsOwn implements AutoCloseable {

    private final Connection connection;
    private final Liquibase liquibase;
    private final JdbcTemplate jdbc;

    private LedgerOfItsOwn(Connection connection) throws LiquibaseException {
        this.connection = connection;
        this.liquibase = new Liquibase("db/changelog/db.changelog-master.yaml", new ClassLoaderResourceAccessor(),
                DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection)));
        this.jdbc = new JdbcTemplate(new SingleConnectionDataSource(connection, true));
    }

    static LedgerOfItsOwn create() throws Exception {
        LocatedDatabase database = TestDatabase.fresh();
        return new LedgerOfItsOwn(DriverManager.getConnection(database.url(), database.username(), database.password()));
    }

    /** Every changeset before {@code changeSetId}; fails when the changelog has none of that id. */
    LedgerOfItsOwn migrateUpTo(String changeSetId) throws Exception {
        int before = liquibase.getDatabaseChangeLog().getChangeSets().stream().map(ChangeSet::getId).toList()
                .indexOf(changeSetId);
        if (before < 1) {
            throw new IllegalArgumentException("no changeset " + changeSetId + " after the first");
        }
        liquibase.update(before, new Contexts(), new LabelExpression());
        return committing();
    }

    /** Every changeset not applied yet. */
    LedgerOfItsOwn migrate() throws Exception {
        liquibase.update(new Contexts(), new LabelExpression());
        return committing();
    }

    // Liquibase leaves autocommit off: a test's rows must be committed, not rolled back with its next transaction
    private LedgerOfItsOwn committing() throws Exception {
        connection.setAutoCommit(true);
        return this;
    }

    JdbcTemplate jdbc() {
        return jdbc;
    }

    /** One operation row for events to refer to (subject {@code subject}); its id. */
    long operation(String subject) {
        jdbc.update("INSERT INTO operation (subject_id, operation_id, payload_hash, command_type, command) "
                + "VALUES (?, gen_random_uuid(), sha256('{}'), 'checkout', '{}')", subject);
        return jdbc.queryForObject("SELECT id FROM operation WHERE subject_id = ?", Long.class, subject);
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }
}

package dev.opledger.effect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.SqlStatement;
import dev.opledger.testing.NodeIntegrationTest;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 13: a held write and the caller's write that are one statement each are sent in one
 * round trip, as one multi-statement in autocommit. What must hold is what held in a transaction
 * of BEGIN, the statements and COMMIT: both commit or neither, a refused held write leaves the
 * caller's write unwritten, and a failure of the caller's write rolls the held write back, which
 * is then written on its own (it records an effect that happened).
 */
@NodeIntegrationTest
class RunWritesTogetherIT {

    private static final String INSERT = "INSERT INTO run_writes_probe (k) VALUES (?) RETURNING true";

    @Autowired
    RunWrites runWrites;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    DataSource dataSource;

    private final OperationId operation = new OperationId(UUID.randomUUID());

    @BeforeEach
    void table() {
        jdbc.execute("CREATE TABLE IF NOT EXISTS run_writes_probe (k text PRIMARY KEY)");
        jdbc.execute("TRUNCATE run_writes_probe");
        runWrites.begin(operation);
    }

    @AfterEach
    void forget() {
        runWrites.release(operation); // nothing is left held: the node's bean forgets the operation
    }

    @Test
    void aHeldWriteAndTheCallersCommitInOneTransaction() {
        runWrites.hold(operation, held("held", INSERT, "held"));

        var together = runWrites.together(operation, rowLocked -> SqlStatement.of(
                "INSERT INTO run_writes_probe (k) VALUES (?) RETURNING " + rowLocked,
                rows -> rows.next() && rows.getBoolean(1), "caller"));

        assertThat(together.held()).isEqualTo(RunWrites.Held.WRITTEN);
        assertThat(together.result()).as("the caller's statement follows a held write: the row counts as locked")
                .isTrue();
        List<String> transactions = jdbc.queryForList("SELECT xmin::text FROM run_writes_probe", String.class);
        assertThat(transactions).hasSize(2);
        assertThat(transactions.get(0)).as("one transaction wrote both").isEqualTo(transactions.get(1));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM run_writes_probe WHERE k IN ('held', 'caller')", Long.class))
                .isEqualTo(2);
    }

    @Test
    void aRefusedHeldWriteLeavesTheCallersFencedWriteUnwritten() {
        runWrites.hold(operation, held("held", "SELECT false", null));

        // fenced as the checkpoint's append is: by the same condition the held write failed
        var together = runWrites.together(operation, rowLocked -> SqlStatement.of(
                "INSERT INTO run_writes_probe (k) SELECT ? WHERE false RETURNING k", rows -> rows.next(), "caller"));

        assertThat(together.held()).isEqualTo(RunWrites.Held.REFUSED);
        assertThat(together.result()).isNull();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM run_writes_probe", Long.class)).isZero();
    }

    @Test
    void aHeldWriteThatFailsWithTheRefusalStateRefusesEverythingSentWithIt() {
        runWrites.hold(operation, held("held alone", INSERT, "held"));
        // its fence held, yet it cannot be written (a checkpoint whose thread moved on)
        runWrites.hold(operation, held("refusing alone",
                "SELECT held_write_refused('the checkpoint was not appended: its thread moved on')", null));

        var together = runWrites.together(operation, rowLocked -> SqlStatement.of(INSERT,
                rows -> rows.next(), "caller"));

        assertThat(together.held()).isEqualTo(RunWrites.Held.REFUSED);
        assertThat(together.result()).isNull();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM run_writes_probe", Long.class))
                .as("neither the held write before it, nor the caller's after it, nor either held write on its own")
                .isZero();
    }

    @Test
    void aFailingCallersWriteRollsTheHeldStatementBackAndTheHeldWriteIsWrittenOnItsOwn() {
        jdbc.update("INSERT INTO run_writes_probe (k) VALUES ('taken')");
        runWrites.hold(operation, held("held alone", INSERT, "held together"));

        assertThatThrownBy(() -> runWrites.together(operation, rowLocked -> SqlStatement.of(INSERT,
                rows -> rows.next(), "taken")))
                .isInstanceOf(DuplicateKeyException.class);

        // sent before the failing one in the same round trip, the held statement did not commit:
        // one implicit transaction, not two
        assertThat(jdbc.queryForList("SELECT k FROM run_writes_probe ORDER BY k", String.class))
                .containsExactly("held alone", "taken");
    }

    @Test
    void withoutHeldWritesTheCallersStatementRunsAloneNotCountingTheRowAsLocked() {
        var together = runWrites.together(operation, rowLocked -> SqlStatement.of(
                "INSERT INTO run_writes_probe (k) VALUES (?) RETURNING " + rowLocked,
                rows -> rows.next() && rows.getBoolean(1), "caller"));

        assertThat(together.held()).isEqualTo(RunWrites.Held.NONE);
        assertThat(together.result()).isFalse();
        assertThat(jdbc.queryForList("SELECT k FROM run_writes_probe", String.class)).containsExactly("caller");
    }

    @Test
    void aHeldWriteWithoutAStatementSendsTheTransactionAsBefore() {
        runWrites.hold(operation, () -> jdbc.update("INSERT INTO run_writes_probe (k) VALUES ('held')") == 1);

        var together = runWrites.together(operation, rowLocked -> SqlStatement.of(INSERT,
                rows -> rows.next(), "caller"));

        assertThat(together.held()).isEqualTo(RunWrites.Held.WRITTEN);
        assertThat(jdbc.queryForList("SELECT k FROM run_writes_probe ORDER BY k", String.class))
                .containsExactly("caller", "held");
    }

    @Test
    void insideTheCallersTransactionTheyAreItsStatementsAndRollBackWithIt() {
        runWrites.hold(operation, held("held", INSERT, "held"));

        var together = new TransactionTemplate(new DataSourceTransactionManager(dataSource)).execute(status -> {
            var written = runWrites.together(operation, rowLocked -> SqlStatement.of(INSERT,
                    rows -> rows.next(), "caller"));
            status.setRollbackOnly();
            return written;
        });

        assertThat(together.held()).isEqualTo(RunWrites.Held.WRITTEN);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM run_writes_probe", Long.class)).isZero();
    }

    @Test
    void onAConnectionOutsideAutocommitTheyCommitAllTheSame() {
        var manualCommits = new DelegatingDataSource(dataSource) {
            @Override
            public Connection getConnection() throws SQLException {
                Connection connection = super.getConnection();
                connection.setAutoCommit(false);
                return connection;
            }
        };
        var writes = new RunWrites(manualCommits);
        writes.begin(operation);
        writes.hold(operation, held("held alone", INSERT, "held"));

        var together = writes.together(operation, rowLocked -> SqlStatement.of(INSERT,
                rows -> rows.next(), "caller"));

        assertThat(together.held()).isEqualTo(RunWrites.Held.WRITTEN);
        assertThat(jdbc.queryForList("SELECT k FROM run_writes_probe ORDER BY k", String.class))
                .containsExactly("caller", "held");
    }

    /**
     * A held write: on its own it inserts {@code alone}; sent together, {@code sql} with
     * {@code argument} (answers whether its fence held).
     */
    private RunWrites.Write held(String alone, String sql, @Nullable String argument) {
        return new RunWrites.Write() {
            @Override
            public boolean write() {
                return jdbc.update("INSERT INTO run_writes_probe (k) VALUES (?)", alone) == 1;
            }

            @Override
            public SqlStatement<Boolean> statement(boolean rowLocked) {
                return argument == null
                        ? SqlStatement.of(sql, rows -> rows.next() && rows.getBoolean(1))
                        : SqlStatement.of(sql, rows -> rows.next() && rows.getBoolean(1), argument);
            }
        };
    }
}

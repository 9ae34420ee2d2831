package dev.opledger.effect;

import dev.opledger.operation.OperationId;
import dev.opledger.operation.SqlStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The writes of a graph run that commit with the run's next write rather than on their own
 * (issue 13: a checkout's commits). While a worker's run of an operation is under way
 * ({@link #begin} … {@link #end}), the effect gateway holds a call's outcome (SUCCEEDED, its event)
 * here instead of committing it; the checkpoint the graph writes right after the step commits it
 * in its own transaction ({@link #together}), so the outcome, the checkpoint and their outbox rows
 * are one commit, sent in one round trip when each is one statement
 * ({@link #together(OperationId, Function)}). The outcome is durable before the next step runs
 * (the checkpoint comes first), and a run that stops without a checkpoint writes what is held at
 * its end, before the end of the run is recorded. Every held write is fenced by the run's lease,
 * as when it commits on its own. The run's first checkpoint (its input) is held too, for the first
 * STARTED.
 *
 * <p>The worker that records the run's end can take what is left at the run's end instead
 * ({@link #carryToRunEnd} … {@link #release}): the graph's last checkpoint (the one whose next node
 * is the graph's end) and the last step's outcome are then held past the graph's run and commit
 * with the end of the run, one transaction for the three, one round trip ({@code SqlStatement}
 * each). Nothing runs between them but the graph's return, so a crash there leaves the last
 * effect's outcome unknown as a crash between the call and its record would.
 */
@Component
public class RunWrites {

    private static final Logger log = LoggerFactory.getLogger(RunWrites.class);

    /**
     * The SQLSTATE of a held write's statement that refuses everything sent with it (the schema's
     * {@code held_write_refused(reason)} raises it): {@link Held#REFUSED}, nothing written.
     */
    public static final String REFUSAL_STATE = "OLR01";

    /** A write held for the run's next transaction. */
    public interface Write {
        /**
         * Writes, joining the caller's transaction, under the run's lease: its fence locks the
         * operation's row until the transaction ends; false when the fence refused it (it wrote
         * nothing).
         */
        boolean write();

        /** Once the transaction that wrote it has committed. */
        default void committed() {
        }

        /**
         * The same write as one statement that answers whether its fence held, for a transaction
         * sent in one round trip ({@link RunWrites#together(OperationId, Function)}); null when it
         * has none. It must change nothing when its fence refuses; a write that its fence allows but
         * that cannot be written (a checkpoint whose thread moved on) must fail with SQLSTATE
         * {@value RunWrites#REFUSAL_STATE}, so that nothing sent with it is written either (an
         * answer cannot roll back the statements after it). {@code rowLocked}: a held write before
         * it in the same transaction locks the operation's row already.
         */
        default @Nullable SqlStatement<Boolean> statement(boolean rowLocked) {
            return null;
        }
    }

    /** What {@link #together} did. */
    public enum Held {
        /** Nothing was held: the caller's write ran on its own. */
        NONE,
        /** The held writes committed with the caller's write. */
        WRITTEN,
        /** A held write was refused by its fence: nothing was written, the caller's write neither. */
        REFUSED
    }

    /** The outcome of {@link #together}: the caller's result (null when refused), and what happened to the held writes. */
    public record Together<T>(Held held, T result) {
    }

    /** One operation's writes: added while {@code holding}; at the graph run's end written, unless {@code carried}. */
    private static final class Pending {
        final List<Write> writes = new ArrayList<>();
        // a graph's nodes may run on threads other than the worker's
        volatile boolean holding;
        volatile boolean carried;
    }

    private final TransactionTemplate transactions;
    private final JdbcTemplate jdbc;
    // by operation: present while a run holds writes or its end is to carry them
    private final Map<UUID, Pending> held = new ConcurrentHashMap<>();
    // the operation whose row the transaction of together or flush on this thread has locked: set once a held write wrote
    private final ThreadLocal<UUID> rowLocked = new ThreadLocal<>();

    RunWrites(DataSource dataSource) {
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** The operation's run holds its outcomes from now on, until {@link #end}. */
    public void begin(OperationId operation) {
        held.computeIfAbsent(operation.value(), id -> new Pending()).holding = true;
    }

    /**
     * For the worker that records the run's end: what the operation's graph run leaves held at
     * its end ({@link #end}) is not written then but kept for {@link #together} with the end of
     * the run; {@link #release} writes what is still kept after that. Without it, a run's end
     * writes what is held on its own.
     */
    public void carryToRunEnd(OperationId operation) {
        held.computeIfAbsent(operation.value(), id -> new Pending()).carried = true;
    }

    /** Whether a run of the operation holds writes: the gateway's outcomes are held, not committed. */
    public boolean holds(OperationId operation) {
        Pending pending = held.get(operation.value());
        return pending != null && pending.holding;
    }

    /** Whether what the operation's run holds at its end is kept for the end of the run ({@link #carryToRunEnd}). */
    public boolean carried(OperationId operation) {
        Pending pending = held.get(operation.value());
        return pending != null && pending.carried;
    }

    /**
     * Whether the caller runs in the transaction of {@link #together} or {@link #flush} and a held
     * write of the operation has written in it: its fence then keeps the operation's row locked
     * (FOR NO KEY UPDATE) until the commit, and a later fence of the same transaction can check
     * the row without locking it again. Each lock of a row version the transaction itself wrote
     * is one more WAL record (issue 13).
     */
    public boolean rowLocked(OperationId operation) {
        return operation.value().equals(rowLocked.get());
    }

    /** Holds {@code write} for the run's next transaction; false (not held) when no run of the operation holds writes. */
    public boolean hold(OperationId operation, Write write) {
        Pending pending = held.get(operation.value());
        if (pending == null) {
            return false;
        }
        synchronized (pending) {
            if (!pending.holding) {
                return false;
            }
            pending.writes.add(write);
        }
        return true;
    }

    /**
     * The held writes, then {@code write}, in one transaction. A held write its fence refused
     * rolls everything back ({@link Held#REFUSED}); an exception of {@code write} too, after which
     * the held writes are written on their own (they record effects that happened) and the
     * exception is thrown on.
     */
    public <T> Together<T> together(OperationId operation, Supplier<T> write) {
        List<Write> writes = take(operation);
        if (writes.isEmpty()) {
            return new Together<>(Held.NONE, write.get());
        }
        return together(operation, writes, write);
    }

    private <T> Together<T> together(OperationId operation, List<Write> writes, Supplier<T> write) {
        Together<T> done;
        try {
            done = inTransaction(status -> {
                if (!writeAll(operation, writes)) {
                    status.setRollbackOnly();
                    return new Together<T>(Held.REFUSED, null);
                }
                return new Together<>(Held.WRITTEN, write.get());
            });
        } catch (RuntimeException e) {
            alone(operation, writes);
            throw e;
        }
        if (done != null && done.held() == Held.WRITTEN) {
            writes.forEach(Write::committed);
        }
        return done;
    }

    /**
     * As {@link #together(OperationId, Supplier)}, for a write that is one statement: when every
     * held write is one as well ({@link Write#statement}), they and {@code write} are sent in one
     * round trip, one multi-statement in autocommit, instead of a round trip for each statement
     * and one for the COMMIT (issue 13). PostgreSQL runs the statements sent before the
     * protocol's Sync as one implicit transaction: all of them commit, or none. A held write
     * that its fence refused wrote nothing, and neither did the statements after it, fenced by
     * the same lease (a lease lost does not come back: only a new lease makes the operation
     * RUNNING, in a new epoch), so {@link Held#REFUSED} means nothing written, as before. A held
     * write that its fence allowed but that cannot be written fails with {@link #REFUSAL_STATE}
     * instead, which rolls the round trip back: {@link Held#REFUSED} as well, and the held writes
     * are not written on their own either (as when a transaction's held write is refused).
     *
     * @param write the caller's write, given whether a held write before it in the same
     *     transaction locks the operation's row already
     */
    public <T> Together<T> together(OperationId operation, Function<Boolean, SqlStatement<T>> write) {
        List<Write> writes = take(operation);
        if (writes.isEmpty()) {
            return new Together<>(Held.NONE, write.apply(false).run(jdbc));
        }
        // in a caller's transaction, which is to hold them, or with a held write that is no one
        // statement: the statements one after another, in a transaction
        List<SqlStatement<?>> statements = TransactionSynchronizationManager.isActualTransactionActive() ? null
                : statements(writes);
        if (statements == null) {
            return together(operation, writes, () -> write.apply(true).run(jdbc));
        }
        statements.add(write.apply(true));
        List<Object> answers;
        try {
            answers = jdbc.execute((ConnectionCallback<List<Object>>) connection -> sendTogether(connection, statements));
        } catch (RuntimeException e) {
            SQLException refused = refusal(e);
            if (refused != null) {
                // the round trip's implicit transaction was rolled back: nothing was written, as when a fence refuses
                log.warn("operation {}: a held write refused the {} statement(s) sent with it: {}", operation,
                        statements.size(), refused.getMessage());
                return new Together<>(Held.REFUSED, null);
            }
            alone(operation, writes);
            throw e;
        }
        if (answers.subList(0, writes.size()).stream().anyMatch(fenceHeld -> !Boolean.TRUE.equals(fenceHeld))) {
            return new Together<>(Held.REFUSED, null);
        }
        writes.forEach(Write::committed);
        @SuppressWarnings("unchecked")
        T result = (T) answers.getLast();
        return new Together<>(Held.WRITTEN, result);
    }

    /** The held write's refusal ({@link #REFUSAL_STATE}) that {@code e} reports; null when it is another failure. */
    private static @Nullable SQLException refusal(RuntimeException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && REFUSAL_STATE.equals(sql.getSQLState())) {
                return sql;
            }
        }
        return null;
    }

    /** The held writes' statements, in order; null when one of them has none. */
    private static @Nullable List<SqlStatement<?>> statements(List<Write> writes) {
        List<SqlStatement<?>> statements = new ArrayList<>();
        for (Write each : writes) {
            SqlStatement<Boolean> statement = each.statement(!statements.isEmpty());
            if (statement == null) {
                return null;
            }
            statements.add(statement);
        }
        return statements;
    }

    /**
     * The statements in one round trip, bound in order, committed together; each one's answer, in
     * order. A connection handed out outside autocommit (a pool so configured) gets BEGIN with
     * them and a COMMIT of its own.
     */
    private static List<Object> sendTogether(Connection connection, List<SqlStatement<?>> statements) throws SQLException {
        if (!connection.getAutoCommit()) {
            try {
                List<Object> answers = send(connection, statements);
                connection.commit();
                return answers;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
        return send(connection, statements);
    }

    private static List<Object> send(Connection connection, List<SqlStatement<?>> statements) throws SQLException {
        String sql = statements.stream().map(SqlStatement::sql).collect(Collectors.joining(";\n"));
        try (PreparedStatement sent = connection.prepareStatement(sql)) {
            int first = 1;
            for (SqlStatement<?> each : statements) {
                each.binder().bind(sent, first);
                first += each.parameters();
            }
            boolean rows = sent.execute();
            List<Object> answers = new ArrayList<>(statements.size());
            for (SqlStatement<?> each : statements) {
                if (!rows) {
                    throw new IllegalStateException("a statement sent together answered no rows: " + each.sql());
                }
                try (ResultSet answer = sent.getResultSet()) {
                    answers.add(each.reader().read(answer));
                }
                rows = sent.getMoreResults();
            }
            return answers;
        }
    }

    /** Writes what is held, in one transaction of its own; false when a fence refused it. */
    public boolean flush(OperationId operation) {
        List<Write> writes = take(operation);
        return writes.isEmpty() || alone(operation, writes);
    }

    /**
     * The graph run ends: nothing is held any more; what is held is written ({@link #flush}), or,
     * for a worker that carries it to the run's end, kept for that (true, nothing written yet).
     */
    public boolean end(OperationId operation) {
        Pending pending = held.get(operation.value());
        if (pending != null) {
            synchronized (pending) {
                pending.holding = false;
                if (pending.carried) {
                    return true;
                }
            }
        }
        return release(operation);
    }

    /**
     * What is still held or kept is written on its own, and forgotten: the worker's end of the run
     * ({@link #carryToRunEnd}), or a graph run's end that nothing carries.
     */
    public boolean release(OperationId operation) {
        try {
            return flush(operation);
        } finally {
            held.remove(operation.value());
        }
    }

    private boolean alone(OperationId operation, List<Write> writes) {
        Boolean written = inTransaction(status -> {
            if (!writeAll(operation, writes)) {
                status.setRollbackOnly();
                return false;
            }
            return true;
        });
        if (Boolean.TRUE.equals(written)) {
            writes.forEach(Write::committed);
            return true;
        }
        log.warn("operation {}: {} held write(s) refused by the lease's fence: not written", operation, writes.size());
        return false;
    }

    /** {@code work} in a transaction of its own, after which no row counts as locked on this thread ({@link #rowLocked}). */
    private <T> T inTransaction(TransactionCallback<T> work) {
        return transactions.execute(status -> {
            try {
                return work.doInTransaction(status);
            } finally {
                rowLocked.remove();
            }
        });
    }

    /** The held writes in order, in the caller's transaction; false at the first its fence refused. */
    private boolean writeAll(OperationId operation, List<Write> writes) {
        for (Write each : writes) {
            if (!each.write()) {
                return false;
            }
            rowLocked.set(operation.value());
        }
        return true;
    }

    private List<Write> take(OperationId operation) {
        Pending pending = held.get(operation.value());
        if (pending == null) {
            return List.of();
        }
        synchronized (pending) {
            List<Write> taken = List.copyOf(pending.writes);
            pending.writes.clear();
            return taken;
        }
    }
}

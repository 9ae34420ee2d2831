package dev.opledger.effect;

import dev.opledger.operation.OperationId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The writes of a graph run that commit with the run's next write rather than on their own
 * (issue 13: a checkout's commits). While a worker's run of an operation is under way
 * ({@link #begin} … {@link #end}), the effect gateway holds a call's outcome (SUCCEEDED, its event)
 * here instead of committing it; the checkpoint the graph writes right after the step commits it
 * in its own transaction ({@link #together}), so the outcome, the checkpoint and their outbox rows
 * are one commit. The outcome is durable before the next step runs (the checkpoint comes first),
 * and a run that stops without a checkpoint writes what is held at its end, before the end of the
 * run is recorded. Every held write is fenced by the run's lease, as when it commits on its own.
 */
@Component
public class RunWrites {

    private static final Logger log = LoggerFactory.getLogger(RunWrites.class);

    /** A write held for the run's next transaction. */
    public interface Write {
        /** Writes, joining the caller's transaction; false when its fence refused it (it wrote nothing). */
        boolean write();

        /** Once the transaction that wrote it has committed. */
        default void committed() {
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

    private final TransactionTemplate transactions;
    // by operation: present while a run defers; its list the writes held
    private final Map<UUID, List<Write>> held = new ConcurrentHashMap<>();

    RunWrites(DataSource dataSource) {
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    /** The operation's run holds its outcomes from now on, until {@link #end}. */
    public void begin(OperationId operation) {
        held.put(operation.value(), new ArrayList<>());
    }

    /** Whether a run of the operation holds writes: the gateway's outcomes are held, not committed. */
    public boolean holds(OperationId operation) {
        return held.containsKey(operation.value());
    }

    /** Holds {@code write} for the run's next transaction; false (not held) when no run of the operation holds writes. */
    public boolean hold(OperationId operation, Write write) {
        List<Write> writes = held.get(operation.value());
        if (writes == null) {
            return false;
        }
        synchronized (writes) {
            writes.add(write);
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
        Together<T> done;
        try {
            done = transactions.execute(status -> {
                for (Write each : writes) {
                    if (!each.write()) {
                        status.setRollbackOnly();
                        return new Together<T>(Held.REFUSED, null);
                    }
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

    /** Writes what is held, in one transaction of its own; false when a fence refused it. */
    public boolean flush(OperationId operation) {
        List<Write> writes = take(operation);
        return writes.isEmpty() || alone(operation, writes);
    }

    /** The run ends: what is held is written ({@link #flush}), and nothing is held any more. */
    public boolean end(OperationId operation) {
        try {
            return flush(operation);
        } finally {
            held.remove(operation.value());
        }
    }

    private boolean alone(OperationId operation, List<Write> writes) {
        Boolean written = transactions.execute(status -> {
            for (Write each : writes) {
                if (!each.write()) {
                    status.setRollbackOnly();
                    return false;
                }
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

    private List<Write> take(OperationId operation) {
        List<Write> writes = held.get(operation.value());
        if (writes == null) {
            return List.of();
        }
        synchronized (writes) {
            List<Write> taken = List.copyOf(writes);
            writes.clear();
            return taken;
        }
    }
}

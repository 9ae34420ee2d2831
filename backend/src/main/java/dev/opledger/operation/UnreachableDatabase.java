package dev.opledger.operation;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Whether a failure means the node cannot reach its database (PostgreSQL restarting, down,
 * refusing connections, or no pooled connection within Hikari's {@code connection-timeout}) —
 * an outage to wait out, not a bug: the API answers it 503 with {@code Retry-After}, a worker
 * leaves the run to resume from its last checkpoint rather than fail the operation. Read from the
 * JDBC causes alone, whatever Spring or Hibernate wrapped them in.
 */
public final class UnreachableDatabase {

    /**
     * How long a client should wait before retrying (REST's {@code Retry-After}, MCP's
     * {@code retryAfterSeconds}): a PostgreSQL restart or failover takes seconds.
     */
    public static final int RETRY_AFTER_SECONDS = 2;

    /** Hikari's stand-in for a connection it closed (a broken one): its SQLException has no SQLSTATE. */
    private static final String HIKARI_CLOSED_CONNECTION = "com.zaxxer.hikari.pool.ProxyConnection$ClosedConnection";

    private UnreachableDatabase() {
    }

    /**
     * True when {@code failure} or a cause is a connection that could not be had or was lost
     * (SQLSTATE class 08, the JDBC connection exceptions), the server shutting down or starting
     * (57P01–57P03), or a statement on a connection the pool had closed as broken.
     */
    public static boolean causedBy(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException || cause instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (cause instanceof SQLException sql && (unreachable(sql.getSQLState()) || closedByThePool(sql))) {
                return true;
            }
        }
        return false;
    }

    /** The innermost cause, class and message, for a log line: not the statement text an outer one quotes. */
    public static String reason(Throwable failure) {
        Throwable innermost = failure;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        while (innermost.getCause() != null && seen.add(innermost)) {
            innermost = innermost.getCause();
        }
        return innermost.getClass().getSimpleName() + ": " + innermost.getMessage();
    }

    private static boolean unreachable(String state) {
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03"));
    }

    private static boolean closedByThePool(SQLException sql) {
        for (StackTraceElement frame : sql.getStackTrace()) {
            if (frame.getClassName().startsWith(HIKARI_CLOSED_CONNECTION)) {
                return true;
            }
        }
        return false;
    }
}

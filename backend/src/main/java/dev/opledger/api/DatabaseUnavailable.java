package dev.opledger.api;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;

/**
 * A request that failed because the node cannot reach its database (PostgreSQL restarting, down,
 * refusing connections, or the pool finding no connection within Hikari's
 * {@code connection-timeout}): answered 503 {@code database-unavailable} with {@code Retry-After},
 * which a client retries with the same operationId, rather than 500. Nothing was stored: the
 * claim's transaction did not commit, so the retry is the first attempt that counts.
 */
final class DatabaseUnavailable {

    /** How long a client should wait: a PostgreSQL restart or failover takes seconds. */
    static final int RETRY_AFTER_SECONDS = 2;

    private DatabaseUnavailable() {
    }

    /**
     * Whether {@code failure}, or a cause of it, says the database could not be reached: a
     * connection that could not be had or was lost (SQLSTATE class 08), the server shutting down
     * or starting (57P01–57P03), or Spring's wrappers of these.
     */
    static boolean causedBy(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause instanceof CannotGetJdbcConnectionException || cause instanceof SQLTransientConnectionException
                    || cause instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (cause instanceof CannotCreateTransactionException && cause.getCause() instanceof SQLException) {
                return true;
            }
            if (cause instanceof SQLException sql && unreachable(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** The innermost cause, class and message, for a log line: not the statement's text, which the outer one quotes. */
    static String reason(Throwable failure) {
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

    static ProblemDetail problem() {
        return ApiProblem.of(ProblemType.DATABASE_UNAVAILABLE, "the node cannot reach its database just now; "
                + "nothing was stored: retry after " + RETRY_AFTER_SECONDS + " s with the same Idempotency-Key", null);
    }

    static ResponseEntity<ProblemDetail> response() {
        return ResponseEntity.status(ProblemType.DATABASE_UNAVAILABLE.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS))
                .body(problem());
    }
}

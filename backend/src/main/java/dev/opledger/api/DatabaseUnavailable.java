package dev.opledger.api;

import dev.opledger.operation.UnreachableDatabase;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * A request that failed because the node cannot reach its database (PostgreSQL restarting, down,
 * refusing connections, or the pool finding no connection within Hikari's
 * {@code connection-timeout}): answered 503 {@code database-unavailable} with {@code Retry-After},
 * which a client retries with the same operationId, rather than 500. Nothing was stored: the
 * claim's transaction did not commit, so the retry is the first attempt that counts.
 */
final class DatabaseUnavailable {

    /** How long a client should wait: a PostgreSQL restart or failover takes seconds. */
    static final int RETRY_AFTER_SECONDS = UnreachableDatabase.RETRY_AFTER_SECONDS;

    private DatabaseUnavailable() {
    }

    /** Whether {@code failure} says the database could not be reached ({@link UnreachableDatabase}). */
    static boolean causedBy(Throwable failure) {
        return UnreachableDatabase.causedBy(failure);
    }

    static String reason(Throwable failure) {
        return UnreachableDatabase.reason(failure);
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

package dev.opledger.classification;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How the effect gateway retries one tool's call within a run; a null part is the node's default
 * ({@code opledger.effects.*} for calls and backoff, the server's {@code timeout} per call). A
 * retry still follows the repeat class: a never-repeat tool is not called again after an unknown
 * outcome, whatever the policy says.
 *
 * @param maxCalls calls of one step in one run, the first included
 * @param backoff wait before the second call, doubled for each further one
 * @param callTimeout how long one call may take before its outcome counts as unknown
 */
public record RetryPolicy(@Nullable Integer maxCalls, @Nullable Duration backoff, @Nullable Duration callTimeout) {

    public static final RetryPolicy DEFAULTS = new RetryPolicy(null, null, null);

    public RetryPolicy {
        if (maxCalls != null && maxCalls < 1) {
            throw new IllegalArgumentException("a retry policy's max calls must be at least 1");
        }
        if (backoff != null && backoff.isNegative()) {
            throw new IllegalArgumentException("a retry policy's backoff must not be negative");
        }
        if (callTimeout != null && !callTimeout.isPositive()) {
            throw new IllegalArgumentException("a retry policy's call timeout must be positive");
        }
    }

    public int maxCallsOr(int fallback) {
        return maxCalls == null ? fallback : maxCalls;
    }

    public Duration backoffOr(Duration fallback) {
        return backoff == null ? fallback : backoff;
    }
}

package dev.opledger.cli.load;

/**
 * What a measured load phase did.
 *
 * @param claims attempts answered as expected: 202 (a new operation), 200 {@code Idempotent-Replayed}
 *     (a repeat), or a CreateTaskResult (MCP, with the repeated call's taskId for a repeat)
 * @param requests HTTP requests sent (a challenge and a claim per attested attempt)
 * @param unexpected any other answer, and transport failures
 * @param latenciesNanos per attempt, from the challenge request (attested) or the claim (plain) to the 202
 */
public record LoadResult(long claims, long requests, long unexpected, double seconds, long[] latenciesNanos) {

    public double claimsPerSecond() {
        return claims / seconds;
    }

    public double percentileMillis(double percentile) {
        return Percentiles.millis(latenciesNanos, percentile);
    }

    /** One line for scripts: {@code RESULT claims=… rps=… requests_per_s=… p50_ms=… p99_ms=… unexpected=…}. */
    public String line() {
        return String.format(java.util.Locale.ROOT,
                "RESULT claims=%d rps=%.1f requests_per_s=%.1f p50_ms=%.3f p99_ms=%.3f unexpected=%d",
                claims, claimsPerSecond(), requests / seconds, percentileMillis(50), percentileMillis(99), unexpected);
    }
}

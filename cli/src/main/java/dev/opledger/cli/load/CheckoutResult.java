package dev.opledger.cli.load;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a measured closed-loop checkout phase did.
 *
 * @param operations checkouts answered 202 in the phase, each then followed to its end (the drain included)
 * @param completedInWindow of those, the ones seen SUCCEEDED before the phase's time was up
 * @param statusReads {@code GET /v1/operations/{id}} requests sent while waiting
 * @param windowSeconds the phase's length, without the drain
 * @param drainedSeconds from the phase's start to the end of its drain
 * @param latenciesNanos per SUCCEEDED operation, from sending the claim to reading SUCCEEDED (so
 *     late by up to the wait before that read)
 * @param otherEnds how operations ended that did not succeed: a status, {@code HTTP_<code>} for
 *     a claim not answered 202, {@code TIMED_OUT}, {@code TRANSPORT}, {@code UNREADABLE}
 */
public record CheckoutResult(long operations, long completedInWindow, long statusReads, double windowSeconds,
        double drainedSeconds, long[] latenciesNanos, Map<String, Long> otherEnds) {

    public CheckoutResult {
        otherEnds = Map.copyOf(otherEnds);
    }

    public long unexpected() {
        return otherEnds.values().stream().mapToLong(Long::longValue).sum();
    }

    public double operationsPerSecond() {
        return completedInWindow / windowSeconds;
    }

    /**
     * One line for scripts: {@code RESULT operations=… completed=… rps=… status_reads=… p50_ms=…
     * p99_ms=… unexpected=… drained_s=…}, then {@code ends=STATUS:n,…} when something did not succeed.
     */
    public String line() {
        String line = String.format(Locale.ROOT,
                "RESULT operations=%d completed=%d rps=%.1f status_reads=%d p50_ms=%.3f p99_ms=%.3f unexpected=%d drained_s=%.3f",
                operations, completedInWindow, operationsPerSecond(), statusReads, Percentiles.millis(latenciesNanos, 50),
                Percentiles.millis(latenciesNanos, 99), unexpected(), drainedSeconds);
        if (otherEnds.isEmpty()) {
            return line;
        }
        return line + " ends=" + otherEnds.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(","));
    }
}

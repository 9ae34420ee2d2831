package dev.opledger.cli.load;

import java.util.Locale;

/**
 * What a measured open-loop checkout phase did: the closed loop's figures ({@link CheckoutResult},
 * latencies from each arrival's scheduled send time) and how closely the sends kept to the schedule.
 *
 * @param perSecond the arrival rate
 * @param scheduled arrivals due in the phase (every one was sent)
 * @param sendLagNanos per arrival, how long after its due time it was sent
 */
public record OpenLoopResult(double perSecond, long scheduled, CheckoutResult checkouts, long[] sendLagNanos) {

    public long unexpected() {
        return checkouts.unexpected();
    }

    /**
     * {@link CheckoutResult#line()}, then {@code rate=… scheduled=… send_lag_p99_ms=… send_lag_max_ms=…}
     * (before any {@code ends=}).
     */
    public String line() {
        String base = checkouts.line();
        int ends = base.indexOf(" ends=");
        String head = ends < 0 ? base : base.substring(0, ends);
        String tail = ends < 0 ? "" : base.substring(ends);
        return head + String.format(Locale.ROOT, " rate=%.1f scheduled=%d send_lag_p99_ms=%.3f send_lag_max_ms=%.3f",
                perSecond, scheduled, Percentiles.millis(sendLagNanos, 99), Percentiles.millis(sendLagNanos, 100)) + tail;
    }
}

package dev.opledger.cli.load;

import java.time.Duration;

/**
 * When an open loop's arrivals are due: arrival {@code i} (from 0) at {@code i / perSecond}
 * seconds after the phase's start, whatever happened to the ones before it. Fixed, not drawn:
 * the same rate always sends the same number in a window, so two runs compare.
 */
public record ArrivalSchedule(double perSecond) {

    public ArrivalSchedule {
        if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("an arrival rate is positive and finite: " + perSecond);
        }
    }

    /** Arrival {@code i}'s due time, in nanoseconds after the phase's start. */
    public long offsetNanos(long i) {
        return Math.round(i * 1e9 / perSecond);
    }

    /** How many arrivals are due before {@code length} has passed. */
    public long arrivalsWithin(Duration length) {
        long nanos = length.toNanos();
        long n = (long) Math.ceil(nanos * perSecond / 1e9);
        // the rounding of offsetNanos decides at the edge
        while (n > 0 && offsetNanos(n - 1) >= nanos) {
            n--;
        }
        while (offsetNanos(n) < nanos) {
            n++;
        }
        return n;
    }
}

package dev.opledger.cli.load;

import java.util.Arrays;

/** Nearest-rank percentiles of latencies, as PostgreSQL's {@code percentile_disc} computes them. */
public final class Percentiles {

    private Percentiles() {
    }

    /**
     * The smallest latency that at least {@code percentile} % of {@code nanos} do not exceed, in
     * milliseconds; NaN when there are none. {@code nanos} is left as it was.
     */
    public static double millis(long[] nanos, double percentile) {
        if (percentile <= 0 || percentile > 100) {
            throw new IllegalArgumentException("a percentile is in (0, 100]: " + percentile);
        }
        if (nanos.length == 0) {
            return Double.NaN;
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(percentile / 100 * sorted.length);
        return sorted[Math.max(rank, 1) - 1] / 1e6;
    }
}

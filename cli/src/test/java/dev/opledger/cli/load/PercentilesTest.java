package dev.opledger.cli.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    private static final long MS = 1_000_000;

    @Test
    void nearestRankAsPercentileDiscComputesIt() {
        long[] hundred = LongStream.rangeClosed(1, 100).map(i -> (101 - i) * MS).toArray(); // 100 ms … 1 ms

        assertThat(Percentiles.millis(hundred, 50)).isEqualTo(50.0);
        assertThat(Percentiles.millis(hundred, 99)).isEqualTo(99.0);
        assertThat(Percentiles.millis(hundred, 100)).isEqualTo(100.0);
        assertThat(Percentiles.millis(hundred, 0.5)).isEqualTo(1.0);
    }

    @Test
    void roundsTheRankUpSoAFewSamplesGiveTheirWorst() {
        long[] three = {3 * MS, 1 * MS, 2 * MS};

        assertThat(Percentiles.millis(three, 50)).isEqualTo(2.0);
        assertThat(Percentiles.millis(three, 99)).isEqualTo(3.0);
        assertThat(Percentiles.millis(new long[] {7 * MS}, 1)).isEqualTo(7.0);
    }

    @Test
    void leavesItsInputInItsOrder() {
        long[] latencies = {5, 1, 4};

        Percentiles.millis(latencies, 50);

        assertThat(latencies).containsExactly(5, 1, 4);
    }

    @Test
    void noSamplesHaveNoPercentile() {
        assertThat(Percentiles.millis(new long[0], 99)).isNaN();
    }

    @Test
    void refusesAPercentileOutsideZeroToHundred() {
        assertThatThrownBy(() -> Percentiles.millis(new long[] {1}, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Percentiles.millis(new long[] {1}, 100.5)).isInstanceOf(IllegalArgumentException.class);
    }
}

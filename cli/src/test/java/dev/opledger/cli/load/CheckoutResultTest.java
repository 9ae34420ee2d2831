package dev.opledger.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckoutResultTest {

    private static final long MS = 1_000_000;

    @Test
    void theLineCountsOperationsCompletedInTheWindowPerSecond() {
        var result = new CheckoutResult(42, 40, 300, 20.0, 20.5, new long[] {10 * MS, 30 * MS, 20 * MS}, Map.of());

        assertThat(result.line()).isEqualTo("RESULT operations=42 completed=40 rps=2.0 status_reads=300 "
                + "p50_ms=20.000 p99_ms=30.000 unexpected=0 drained_s=20.500");
    }

    @Test
    void endsOtherThanSucceededAreUnexpectedAndListedByName() {
        var result = new CheckoutResult(5, 2, 20, 10.0, 10.1, new long[] {MS, MS},
                Map.of("TIMED_OUT", 1L, "FAILED", 2L, "HTTP_422", 4L));

        assertThat(result.unexpected()).isEqualTo(7);
        assertThat(result.line()).endsWith(" unexpected=7 drained_s=10.100 ends=FAILED:2,HTTP_422:4,TIMED_OUT:1");
    }
}

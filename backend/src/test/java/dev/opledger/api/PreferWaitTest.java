package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** RFC 7240's {@code wait} as {@link PreferWait} reads it. */
class PreferWaitTest {

    private static final Duration MAX = Duration.ofSeconds(30);

    private static Optional<Duration> preferred(String... headers) {
        return PreferWait.from(Collections.enumeration(List.of(headers)), MAX);
    }

    @Test
    void readsTheWaitPreferenceAsRfc7240WritesIt() {
        assertThat(preferred("wait=10")).hasValue(Duration.ofSeconds(10));
        assertThat(preferred("respond-async, wait=5")).hasValue(Duration.ofSeconds(5));
        assertThat(preferred("Wait = 7 ; foo=bar")).hasValue(Duration.ofSeconds(7));
        assertThat(preferred("wait=\"3\"")).hasValue(Duration.ofSeconds(3));
        assertThat(preferred("handling=lenient", "wait=2")).hasValue(Duration.ofSeconds(2));
        assertThat(preferred("foo=\"a, wait=9\", wait=4")).as("a comma inside a quoted string").hasValue(Duration.ofSeconds(4));
        assertThat(preferred("wait=0")).hasValue(Duration.ZERO);
        assertThat(preferred("wait=" + "0".repeat(5000) + "2")).as("leading zeros").hasValue(Duration.ofSeconds(2));
    }

    @Test
    void onlyTheFirstWaitCounts() {
        assertThat(preferred("wait=1, wait=20")).hasValue(Duration.ofSeconds(1));
        assertThat(preferred("wait=x, wait=20")).as("the first is invalid: ignored, and so is the rest").isEmpty();
    }

    @Test
    void anInvalidWaitIsIgnored() {
        for (String invalid : List.of("wait", "wait=", "wait=-1", "wait=1.5", "wait=1s", "wait=abc", "wait=\"\"",
                "wait=+3", "wait=0x10", "waiting=3", "", ",,,")) {
            assertThat(preferred(invalid)).as(invalid).isEmpty();
        }
        assertThat(preferred()).isEmpty();
    }

    @Test
    void aWaitAboveTheBoundWaitsTheBound() {
        assertThat(preferred("wait=31")).hasValue(MAX);
        assertThat(preferred("wait=99999999999999999999999")).hasValue(MAX);
        assertThat(PreferWait.applied(MAX)).isEqualTo("wait=30");
    }

    /** Seeded, so a failure reproduces: every delta-seconds, and every string made of the header's characters. */
    @Test
    void generatedHeadersGiveNothingOrABoundedWait() {
        var random = new Random(7240);
        for (int i = 0; i < 20_000; i++) {
            int seconds = random.nextInt(1_000_000);
            assertThat(preferred("wait=" + seconds)).hasValue(Duration.ofSeconds(Math.min(seconds, MAX.toSeconds())));
            String alphabet = "wait=WAIT0123456789 ,;\"\\-+.xé\t";
            var header = new StringBuilder();
            for (int c = random.nextInt(24); c > 0; c--) {
                header.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            assertThat(preferred(header.toString())).as(header.toString()).satisfiesAnyOf(
                    waited -> assertThat(waited).isEmpty(),
                    waited -> assertThat(waited.orElseThrow()).isBetween(Duration.ZERO, MAX));
        }
    }
}

package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FormatsTest {

    @Test
    void aDurationIsWrittenInTheUnitsAPersonReadsItIn() {
        assertThat(Formats.duration(Duration.ofMillis(350))).isEqualTo("350 ms");
        assertThat(Formats.duration(Duration.ofMillis(4_240))).isEqualTo("4.2 s");
        assertThat(Formats.duration(Duration.ofSeconds(90))).isEqualTo("1 min 30 s");
        assertThat(Formats.duration(Duration.ofMinutes(2))).isEqualTo("2 min");
        assertThat(Formats.duration(Duration.ofMinutes(125))).isEqualTo("2 h 5 min");
        assertThat(Formats.duration(Duration.ofDays(7))).isEqualTo("7 d");
        assertThat(Formats.duration(Duration.ofMillis(-20))).isEqualTo("-20 ms");
    }
}

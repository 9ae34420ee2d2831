package dev.opledger.attest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AppIdTest {

    @Test
    void acceptsABundleIdWithAnUnderscoreAsApplesOwnSampleHas() {
        assertThat(AppId.of("0352187391", "com.apple.example_app_attest").value())
                .isEqualTo("0352187391.com.apple.example_app_attest");
    }

    @Test
    void refusesAnAppIdWithoutATenCharacterTeamId() {
        assertThatThrownBy(() -> new AppId("com.example.app")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AppId.of("ABCDE", "com.example.app")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AppId.of("ABCDE12345", "com example")).isInstanceOf(IllegalArgumentException.class);
    }
}

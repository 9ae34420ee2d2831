package dev.opledger.ui.devices;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DeviceStatusTest {

    @Test
    void aKeyThatIsNotRevokedIsActive() {
        assertThat(DeviceStatus.of(DeviceKeys.active())).isEqualTo("Active");
    }

    @Test
    void aRevokedKeySaysWhoRevokedItWhenAndWhy() {
        assertThat(DeviceStatus.of(DeviceKeys.revoked("admin", "device reported lost")))
                .isEqualTo("Revoked by admin at 2026-11-30 12:34:56.789 UTC: device reported lost");
    }

    @Test
    void leavesOutWhatWasNotRecorded() {
        assertThat(DeviceStatus.of(DeviceKeys.revoked(null, null))).isEqualTo("Revoked at 2026-11-30 12:34:56.789 UTC");
    }
}

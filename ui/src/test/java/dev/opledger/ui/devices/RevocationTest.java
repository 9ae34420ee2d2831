package dev.opledger.ui.devices;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RevocationTest {

    @Test
    void saysTheKeyIsRevokedNow() {
        var revoked = DeviceKeys.revoked("admin", "lost");

        assertThat(Revocation.message(DeviceKeys.active(), true, Optional.of(revoked)))
                .isEqualTo("Key q83vEjRWeJCr… revoked: attempts signed with it are refused from now on.");
    }

    @Test
    void anAlreadyRevokedKeySaysByWhomWhenAndWhy() {
        var earlier = DeviceKeys.revoked("other-admin", "stolen");

        assertThat(Revocation.message(DeviceKeys.active(), false, Optional.of(earlier)))
                .isEqualTo("Nothing changed: key q83vEjRWeJCr… was already revoked by other-admin at "
                        + "2026-11-30 12:34:56.789 UTC: stolen.");
    }

    @Test
    void aKeyThatIsGoneSaysSo() {
        assertThat(Revocation.message(DeviceKeys.active(), false, Optional.empty()))
                .isEqualTo("Nothing changed: key q83vEjRWeJCr… is not registered.");
    }
}

package dev.opledger.cli.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import org.junit.jupiter.api.Test;

class EcKeysTest {

    @Test
    void aPointOnTheCurveIsTheSameKeyAgain() throws Exception {
        byte[] point = EcKeys.point(p256().getPublic());

        assertThat(EcKeys.point(EcKeys.publicKey(point))).isEqualTo(point);
    }

    @Test
    void aPointOffTheCurveIsRefused() throws Exception {
        byte[] point = EcKeys.point(p256().getPublic());
        point[64] ^= 0x01; // y changed by one bit: no longer y² = x³ − 3x + b

        assertThatThrownBy(() -> EcKeys.publicKey(point))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a point on P-256");
    }

    private static java.security.KeyPair p256() throws Exception {
        var generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }
}

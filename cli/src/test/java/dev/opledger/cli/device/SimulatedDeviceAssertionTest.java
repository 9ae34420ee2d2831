package dev.opledger.cli.device;

import static dev.opledger.cli.device.SimulatedDeviceTest.APP;
import static dev.opledger.cli.device.SimulatedDeviceTest.CLOCK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.opledger.attest.AppAttestVerifier;
import dev.opledger.attest.AppId;
import dev.opledger.attest.AssertionCheck;
import dev.opledger.attest.AssertionRejectedException;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.ClientData;
import dev.opledger.operation.Command;
import dev.opledger.operation.OperationId;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Assertions verify with the attested key, counters go up, and a replayed counter is refused. */
class SimulatedDeviceAssertionTest {

    private static final byte[] CHALLENGE = new byte[32];
    private static final byte[] CLIENT_DATA_HASH = ClientData.hashOfAttempt(CHALLENGE, OperationId.random(),
            Command.parse(("{\"type\":\"checkout\",\"arguments\":{\"sku\":\"SKU-ESPRESSO\",\"quantity\":1,\"amount\":49.90,"
                    + "\"currency\":\"EUR\",\"recipient\":\"ann@example.com\"}}").getBytes(StandardCharsets.UTF_8)).payloadHash());

    @Test
    void assertionsVerifyWithTheAttestedKeyAndTheirCountersIncrease() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE, CLOCK);
        byte[] attestedKey = SimulatedDeviceTest.verify(device, AttestEnvironment.DEVELOPMENT, SimulatedDeviceTest.NOW)
                .publicKey();

        long stored = 0;
        for (int i = 1; i <= 3; i++) {
            stored = AppAttestVerifier.verifyAssertion(device.assertion(CLIENT_DATA_HASH), CLIENT_DATA_HASH, attestedKey,
                    APP, stored).counter();
            assertThat(stored).isEqualTo(i);
        }
        assertThat(device.counter()).isEqualTo(3);
    }

    @Test
    void aReplayedAssertionFailsTheCounter() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT);
        byte[] assertion = device.assertion(CLIENT_DATA_HASH);
        long stored = AppAttestVerifier.verifyAssertion(assertion, CLIENT_DATA_HASH, device.publicKey(), APP, 0).counter();

        var replay = catchThrowableOfType(AssertionRejectedException.class,
                () -> AppAttestVerifier.verifyAssertion(assertion, CLIENT_DATA_HASH, device.publicKey(), APP, stored));

        assertThat(replay.check()).isEqualTo(AssertionCheck.COUNTER);
    }

    @Test
    void anIos27AssertionWithDataAfterTheCounterVerifies() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE.withIos27(), CLOCK);

        var verified = AppAttestVerifier.verifyAssertion(device.assertion(CLIENT_DATA_HASH), CLIENT_DATA_HASH,
                device.publicKey(), APP, 0);

        assertThat(verified.counter()).isEqualTo(1);
    }

    @Test
    void anAssertionOverOtherClientDataFailsTheSignature() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE.withWrongNonce(), CLOCK);

        var refusal = catchThrowableOfType(AssertionRejectedException.class, () -> AppAttestVerifier.verifyAssertion(
                device.assertion(CLIENT_DATA_HASH), CLIENT_DATA_HASH, device.publicKey(), APP, 0));

        assertThat(refusal.check()).isEqualTo(AssertionCheck.SIGNATURE);
    }

    @Test
    void anAssertionForAnotherAppFailsTheRpId() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT,
                DeviceVariant.APPLE.withRpIdOf(new AppId("ABCDE12345.com.example.other")), CLOCK);

        var refusal = catchThrowableOfType(AssertionRejectedException.class, () -> AppAttestVerifier.verifyAssertion(
                device.assertion(CLIENT_DATA_HASH), CLIENT_DATA_HASH, device.publicKey(), APP, 0));

        assertThat(refusal.check()).isEqualTo(AssertionCheck.RP_ID);
    }

    @Test
    void aRestoredDeviceContinuesFromItsStoredCounter() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT);
        var restored = SimulatedDevice.restore(device.privateKey(), device.publicKey(), APP, AttestEnvironment.DEVELOPMENT,
                DeviceVariant.APPLE, CLOCK, 41);

        var verified = AppAttestVerifier.verifyAssertion(restored.assertion(CLIENT_DATA_HASH), CLIENT_DATA_HASH,
                device.publicKey(), APP, 41);

        assertThat(verified.counter()).isEqualTo(42);
        assertThat(restored.keyId()).isEqualTo(device.keyId());
    }

    @Test
    void aDeviceIsNotRestoredWithSomebodyElsesPrivateKey() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT);
        var other = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT);

        var refusal = catchThrowableOfType(IllegalArgumentException.class, () -> SimulatedDevice.restore(
                other.privateKey(), device.publicKey(), APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE, CLOCK, 0));

        assertThat(refusal).hasMessageContaining("not the public key's");
    }
}

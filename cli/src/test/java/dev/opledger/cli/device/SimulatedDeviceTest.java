package dev.opledger.cli.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.opledger.attest.AppAttestVerifier;
import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.attest.AttestationCheck;
import dev.opledger.attest.AttestationRejectedException;
import dev.opledger.attest.ClientData;
import dev.opledger.attest.TrustRoots;
import dev.opledger.attest.VerifiedAttestation;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.dataformat.cbor.CBORMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The node's own verifier, trusting the development root, accepts the device and catches each fault. */
class SimulatedDeviceTest {

    static final AppAttestVerifier VERIFIER = TrustRoots.verifier(List.of(DevAuthority.ROOT_LOCATION));
    static final AppId APP = new AppId("OPLEDGERDV.dev.opledger.simulator");
    static final Instant NOW = Instant.now();
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final byte[] CLIENT_DATA_HASH = ClientData.hashOfRegistration("a challenge of 32 bytes, exactly".getBytes(StandardCharsets.US_ASCII));

    static VerifiedAttestation verify(SimulatedDevice device, AttestEnvironment environment, Instant at) {
        return VERIFIER.verifyAttestation(device.attestation(CLIENT_DATA_HASH), device.keyId(), CLIENT_DATA_HASH,
                Set.of(APP), environment, at);
    }

    @Test
    void anAttestationVerifiesLikeAnIPhones() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE, CLOCK);

        var verified = verify(device, AttestEnvironment.DEVELOPMENT, NOW);

        assertThat(verified.keyId()).isEqualTo(device.keyId()).hasSize(32);
        assertThat(verified.publicKey()).isEqualTo(device.publicKey()).hasSize(65);
        assertThat(verified.app()).isEqualTo(APP);
        assertThat(verified.environment()).isEqualTo(AttestEnvironment.DEVELOPMENT);
        assertThat(verified.receipt()).isNotEmpty();
        assertThat(verified.extensionData()).isEmpty();
    }

    @Test
    void anAttestationIsLaidOutAsARealIPhonesIs() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE, CLOCK);
        byte[] attestation = device.attestation(CLIENT_DATA_HASH);

        // up to the x5c array of two, the bytes are those of the iOS 14 samples (attest/vectors)
        assertThat(HexFormat.of().formatHex(attestation, 0, 35))
                .isEqualTo("a363666d746f6170706c652d6170706174746573746761747453746d74a26378356382");
        var authData = new CBORMapper().readTree(attestation).get("authData").binaryValue();
        assertThat(authData).hasSize(164); // as an iPhone's: 37 + aaguid 16 + 2 + keyId 32 + COSE key 77
        assertThat(authData[32]).isEqualTo((byte) 0x40);
        assertThat(HexFormat.of().formatHex(authData, 87, 97)).isEqualTo("a5010203262001215820");
    }

    @Test
    void aProductionDeviceVerifiesAsProduction() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.PRODUCTION, DeviceVariant.APPLE, CLOCK);

        assertThat(verify(device, AttestEnvironment.PRODUCTION, NOW).environment()).isEqualTo(AttestEnvironment.PRODUCTION);
    }

    @Test
    void anIos27AttestationVerifiesAndKeepsItsExtensionData() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE.withIos27(), CLOCK);

        var verified = verify(device, AttestEnvironment.DEVELOPMENT, NOW);

        assertThat(verified.extensionData()).isEqualTo(Cbor.encode(AuthenticatorDataWriter.IOS27_EXTENSION));
    }

    @Test
    void theLeafLivesFromFiveMinutesAgoForThreeDays() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE, CLOCK);

        verify(device, AttestEnvironment.DEVELOPMENT, NOW.minus(Duration.ofMinutes(4)));
        verify(device, AttestEnvironment.DEVELOPMENT, NOW.plus(Duration.ofDays(3)).minusSeconds(1));
        var late = catchThrowableOfType(AttestationRejectedException.class,
                () -> verify(device, AttestEnvironment.DEVELOPMENT, NOW.plus(Duration.ofDays(3)).plusSeconds(1)));

        assertThat(late.check()).isEqualTo(AttestationCheck.CERTIFICATE_CHAIN);
    }

    static Stream<Arguments> faults() {
        return Stream.of(
                Arguments.of("another app's rpId", DeviceVariant.APPLE.withRpIdOf(new AppId("ABCDE12345.com.example.other")),
                        AttestationCheck.RP_ID),
                Arguments.of("the other environment's aaguid", DeviceVariant.APPLE.withWrongEnvironment(),
                        AttestationCheck.AAGUID),
                Arguments.of("the nonce of another clientDataHash", DeviceVariant.APPLE.withWrongNonce(),
                        AttestationCheck.NONCE),
                Arguments.of("a leaf from a throwaway CA", DeviceVariant.APPLE.withUntrustedChain(),
                        AttestationCheck.CERTIFICATE_CHAIN),
                Arguments.of("a leaf that expired before now", DeviceVariant.APPLE.withLeafExpiredBefore(NOW),
                        AttestationCheck.CERTIFICATE_CHAIN),
                Arguments.of("a sign count of 1", DeviceVariant.APPLE.withNonZeroCounter(), AttestationCheck.COUNTER),
                Arguments.of("a credential id that is not the keyId", DeviceVariant.APPLE.withCredentialIdNotKeyId(),
                        AttestationCheck.CREDENTIAL),
                Arguments.of("iOS 27 with another app's rpId",
                        DeviceVariant.APPLE.withIos27().withRpIdOf(new AppId("ABCDE12345.com.example.other")),
                        AttestationCheck.RP_ID));
    }

    @ParameterizedTest(name = "{0} fails {2}")
    @MethodSource("faults")
    void eachFaultFailsItsCheck(String fault, DeviceVariant variant, AttestationCheck expected) {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, variant, CLOCK);

        var refusal = catchThrowableOfType(AttestationRejectedException.class,
                () -> verify(device, AttestEnvironment.DEVELOPMENT, NOW));

        assertThat(refusal).as(fault).isNotNull();
        assertThat(refusal.check()).as(refusal.getMessage()).isEqualTo(expected);
    }

    @Test
    void aDevelopmentKeyIsRefusedWhereProductionIsConfigured() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE, CLOCK);

        var refusal = catchThrowableOfType(AttestationRejectedException.class,
                () -> verify(device, AttestEnvironment.PRODUCTION, NOW));

        assertThat(refusal.check()).isEqualTo(AttestationCheck.AAGUID);
    }

    @Test
    void aNodeThatTrustsOnlyAppleRefusesTheDevelopmentChain() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE, CLOCK);

        var refusal = catchThrowableOfType(AttestationRejectedException.class, () -> TrustRoots.verifier(List.of())
                .verifyAttestation(device.attestation(CLIENT_DATA_HASH), device.keyId(), CLIENT_DATA_HASH, Set.of(APP),
                        AttestEnvironment.DEVELOPMENT, NOW));

        assertThat(refusal.check()).isEqualTo(AttestationCheck.CERTIFICATE_CHAIN);
    }

    @Test
    void anAttestationForAnotherChallengeFailsTheNonce() {
        var device = SimulatedDevice.create(APP, AttestEnvironment.DEVELOPMENT, DeviceVariant.APPLE, CLOCK);
        byte[] other = ClientData.hashOfRegistration(new byte[32]);

        var refusal = catchThrowableOfType(AttestationRejectedException.class, () -> VERIFIER.verifyAttestation(
                device.attestation(CLIENT_DATA_HASH), device.keyId(), other, Set.of(APP), AttestEnvironment.DEVELOPMENT,
                NOW));

        assertThat(refusal.check()).isEqualTo(AttestationCheck.NONCE);
    }
}

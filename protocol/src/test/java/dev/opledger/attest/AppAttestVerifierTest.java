package dev.opledger.attest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.opledger.attest.internal.Digests;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Real iPhone data and Apple's own sample verify; a one-byte change anywhere in them does not. */
class AppAttestVerifierTest {

    private static final AppAttestVerifier APPLE_ONLY = TrustRoots.verifier(List.of());

    static List<RealDeviceSample> samples() {
        return RealDeviceSample.all();
    }

    private static VerifiedAttestation attest(RealDeviceSample sample, byte[] attestation) {
        return APPLE_ONLY.verifyAttestation(attestation, sample.keyId(), Digests.sha256(sample.attestationClientData()),
                Set.of(sample.app()), AttestEnvironment.DEVELOPMENT, sample.attestedAt());
    }

    private static VerifiedAssertion assertWith(RealDeviceSample sample, byte[] assertion) {
        return AppAttestVerifier.verifyAssertion(assertion, Digests.sha256(sample.assertionClientData()),
                sample.publicKey(), sample.app(), 0);
    }

    @ParameterizedTest
    @MethodSource("samples")
    void verifiesARealAttestationAtItsTimestamp(RealDeviceSample sample) {
        var verified = attest(sample, sample.attestation());

        assertThat(verified.publicKey()).isEqualTo(sample.publicKey());
        assertThat(verified.keyId()).isEqualTo(sample.keyId());
        assertThat(verified.app()).isEqualTo(sample.app());
        assertThat(verified.environment()).isEqualTo(AttestEnvironment.DEVELOPMENT);
        assertThat(verified.receipt()).isNotEmpty();
        assertThat(verified.extensionData()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void verifiesARealAssertion(RealDeviceSample sample) {
        assertThat(assertWith(sample, sample.assertion()).counter()).isEqualTo(sample.assertionCounter());
    }

    @ParameterizedTest
    @MethodSource("samples")
    void refusesEveryOneByteChangeOfAnAttestation(RealDeviceSample sample) {
        List<String> accepted = new ArrayList<>();
        byte[] original = sample.attestation();
        for (int i = 0; i < original.length; i++) {
            byte[] changed = original.clone();
            changed[i] ^= 0x01;
            var refusal = catchThrowableOfType(AttestationRejectedException.class, () -> attest(sample, changed));
            if (refusal == null) {
                accepted.add("byte " + i);
            }
        }
        assertThat(accepted).as("changes that still verified").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void refusesEveryOneByteChangeOfAnAssertion(RealDeviceSample sample) {
        List<String> accepted = new ArrayList<>();
        byte[] original = sample.assertion();
        for (int i = 0; i < original.length; i++) {
            byte[] changed = original.clone();
            changed[i] ^= 0x01;
            if (catchThrowableOfType(AssertionRejectedException.class, () -> assertWith(sample, changed)) == null) {
                accepted.add("byte " + i);
            }
        }
        assertThat(accepted).as("changes that still verified").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void refusesTheAttestationOnceTheLeafHasExpired(RealDeviceSample sample) {
        var late = catchThrowableOfType(AttestationRejectedException.class, () -> APPLE_ONLY.verifyAttestation(
                sample.attestation(), sample.keyId(), Digests.sha256(sample.attestationClientData()),
                Set.of(sample.app()), AttestEnvironment.DEVELOPMENT, sample.attestedAt().plus(Duration.ofDays(30))));

        assertThat(late.check()).isEqualTo(AttestationCheck.CERTIFICATE_CHAIN);
    }

    @ParameterizedTest
    @MethodSource("samples")
    void refusesAnotherAppAnotherEnvironmentAndAnotherChallenge(RealDeviceSample sample) {
        byte[] clientDataHash = Digests.sha256(sample.attestationClientData());
        assertThatThrownBy(() -> APPLE_ONLY.verifyAttestation(sample.attestation(), sample.keyId(), clientDataHash,
                Set.of(AppId.of("ABCDE12345", "com.example.other")), AttestEnvironment.DEVELOPMENT, sample.attestedAt()))
                .extracting(e -> ((AttestationRejectedException) e).check()).isEqualTo(AttestationCheck.RP_ID);
        assertThatThrownBy(() -> APPLE_ONLY.verifyAttestation(sample.attestation(), sample.keyId(), clientDataHash,
                Set.of(sample.app()), AttestEnvironment.PRODUCTION, sample.attestedAt()))
                .extracting(e -> ((AttestationRejectedException) e).check()).isEqualTo(AttestationCheck.AAGUID);
        assertThatThrownBy(() -> APPLE_ONLY.verifyAttestation(sample.attestation(), sample.keyId(),
                Digests.sha256("another challenge".getBytes()), Set.of(sample.app()), AttestEnvironment.DEVELOPMENT,
                sample.attestedAt()))
                .extracting(e -> ((AttestationRejectedException) e).check()).isEqualTo(AttestationCheck.NONCE);
    }

    @ParameterizedTest
    @MethodSource("samples")
    void refusesAReplayedAssertionCounter(RealDeviceSample sample) {
        var replay = catchThrowableOfType(AssertionRejectedException.class, () -> AppAttestVerifier.verifyAssertion(
                sample.assertion(), Digests.sha256(sample.assertionClientData()), sample.publicKey(), sample.app(),
                sample.assertionCounter()));

        assertThat(replay.check()).isEqualTo(AssertionCheck.COUNTER);
    }

    /** Regression: Apple's sample has a 21-byte clientDataHash (its challenge itself), which the CLI refused. */
    @Test
    void verifiesApplesSampleWhoseClientDataHashIsItsRawChallenge() {
        var sample = AppleSample.load();

        var verified = APPLE_ONLY.verifyAttestation(sample.attestation(), sample.keyId(), sample.clientDataHash(),
                Set.of(sample.app()), AttestEnvironment.PRODUCTION, sample.at());

        assertThat(sample.clientDataHash()).hasSize(21);
        assertThat(verified.keyId()).isEqualTo(sample.keyId());
        assertThat(verified.environment()).isEqualTo(AttestEnvironment.PRODUCTION);
        var hashedOnceMore = catchThrowableOfType(AttestationRejectedException.class, () -> APPLE_ONLY.verifyAttestation(
                sample.attestation(), sample.keyId(), Digests.sha256(sample.clientDataHash()), Set.of(sample.app()),
                AttestEnvironment.PRODUCTION, sample.at()));
        assertThat(hashedOnceMore.check()).isEqualTo(AttestationCheck.NONCE);
    }
}

package dev.opledger.cli.device;

import dev.opledger.attest.AppId;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * How a simulated device deviates from an iPhone on iOS 14–26: iOS 27's extension data, or one
 * fault per check a verifier makes. {@link #APPLE} is none of them; the other values are made with
 * the withers, e.g. {@code DeviceVariant.APPLE.withIos27()}.
 *
 * @param ios27 append a CBOR map after the COSE key (attestation) and after the counter
 *     (assertion) without setting the ED flag, as iOS 27 does
 * @param rpIdOf write the rpIdHash of this app instead of the device's own (attestation and
 *     assertion)
 * @param wrongEnvironment write the aaguid of the other environment
 * @param wrongNonce put the nonce of another clientDataHash in the leaf (attestation), sign over
 *     another clientDataHash (assertion)
 * @param untrustedChain issue the leaf from a throwaway CA nobody trusts
 * @param expiredBefore make the leaf valid only before this instant
 * @param nonZeroCounter attest with a sign count of 1
 * @param credentialIdNotKeyId write a credential id other than the keyId
 */
public record DeviceVariant(boolean ios27, @Nullable AppId rpIdOf, boolean wrongEnvironment, boolean wrongNonce,
        boolean untrustedChain, @Nullable Instant expiredBefore, boolean nonZeroCounter, boolean credentialIdNotKeyId) {

    public static final DeviceVariant APPLE = new DeviceVariant(false, null, false, false, false, null, false, false);

    public DeviceVariant withIos27() {
        return new DeviceVariant(true, rpIdOf, wrongEnvironment, wrongNonce, untrustedChain, expiredBefore,
                nonZeroCounter, credentialIdNotKeyId);
    }

    public DeviceVariant withRpIdOf(AppId app) {
        return new DeviceVariant(ios27, app, wrongEnvironment, wrongNonce, untrustedChain, expiredBefore,
                nonZeroCounter, credentialIdNotKeyId);
    }

    public DeviceVariant withWrongEnvironment() {
        return new DeviceVariant(ios27, rpIdOf, true, wrongNonce, untrustedChain, expiredBefore, nonZeroCounter,
                credentialIdNotKeyId);
    }

    public DeviceVariant withWrongNonce() {
        return new DeviceVariant(ios27, rpIdOf, wrongEnvironment, true, untrustedChain, expiredBefore, nonZeroCounter,
                credentialIdNotKeyId);
    }

    public DeviceVariant withUntrustedChain() {
        return new DeviceVariant(ios27, rpIdOf, wrongEnvironment, wrongNonce, true, expiredBefore, nonZeroCounter,
                credentialIdNotKeyId);
    }

    public DeviceVariant withLeafExpiredBefore(Instant instant) {
        return new DeviceVariant(ios27, rpIdOf, wrongEnvironment, wrongNonce, untrustedChain, instant, nonZeroCounter,
                credentialIdNotKeyId);
    }

    public DeviceVariant withNonZeroCounter() {
        return new DeviceVariant(ios27, rpIdOf, wrongEnvironment, wrongNonce, untrustedChain, expiredBefore, true,
                credentialIdNotKeyId);
    }

    public DeviceVariant withCredentialIdNotKeyId() {
        return new DeviceVariant(ios27, rpIdOf, wrongEnvironment, wrongNonce, untrustedChain, expiredBefore,
                nonZeroCounter, true);
    }
}

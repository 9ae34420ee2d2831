/**
 * A simulated iPhone App Attest device: a P-256 key whose attestations (certificate chain, nonce,
 * authenticator data, fraud receipt) and assertions have the bytes Apple's devices produce, issued
 * under a development authority that only local and test nodes trust ({@link
 * dev.opledger.cli.device.DevAuthority}). {@link dev.opledger.cli.device.DeviceVariant} makes the
 * deviations tests need: iOS 27's extension data and one fault per verifier check.
 */
@NullMarked
package dev.opledger.cli.device;

import org.jspecify.annotations.NullMarked;

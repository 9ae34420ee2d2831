package dev.opledger.attest;

/** An assertion whose signature, rpId and counter verified; {@code counter} is the new value to store. */
public record VerifiedAssertion(long counter) {
}

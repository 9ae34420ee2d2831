package dev.opledger.attest;

import java.time.Instant;

/** A fresh single-use challenge for one attempt or one key registration. */
public record IssuedChallenge(byte[] challenge, Instant expiresAt) {
}

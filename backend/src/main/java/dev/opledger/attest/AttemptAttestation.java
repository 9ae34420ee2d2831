package dev.opledger.attest;

/** What App Attest said about one attempt of an operation. */
public sealed interface AttemptAttestation {

    /** A verified assertion by this key, whose counter is now {@code counter}. */
    record Asserted(byte[] keyId, long counter) implements AttemptAttestation {
    }

    /** No assertion was required (mode optional without one, or mode off). */
    record Unattested() implements AttemptAttestation {
    }
}

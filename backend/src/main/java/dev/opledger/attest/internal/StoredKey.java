package dev.opledger.attest.internal;

import dev.opledger.attest.AppId;
import dev.opledger.attest.AttestEnvironment;
import dev.opledger.operation.SubjectId;

/** What verifying an assertion needs of a registered key; none of it ever changes. */
public record StoredKey(SubjectId subject, byte[] publicKey, AppId app, AttestEnvironment environment) {
}

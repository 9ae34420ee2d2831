package dev.opledger.attest;

import org.jspecify.annotations.Nullable;

/** The App Attest headers of one attempt as received, not yet decoded; any may be absent. */
public record AttemptHeaders(@Nullable String keyId, @Nullable String challenge, @Nullable String assertion) {
}

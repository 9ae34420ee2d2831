package dev.opledger.classification;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A configured tool server as the registry knows it.
 *
 * @param transport {@code HTTP} or {@code STDIO}
 * @param discoveredAt when its tools were last listed; null if never
 * @param discoveryError why the last listing failed; null if it did not
 * @param tools how many of its tools the registry holds
 * @param openChanges how many changes of its tools wait for review
 */
public record RegisteredServer(String name, String transport, String location, @Nullable Instant discoveredAt,
        @Nullable String discoveryError, int tools, int openChanges) {
}

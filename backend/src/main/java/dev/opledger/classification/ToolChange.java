package dev.opledger.classification;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What discovery saw differ from the registry for one tool, flagged for a person: the registry
 * keeps {@code recorded} until someone accepts the change.
 *
 * @param recorded the registry's value (JSON)
 * @param listed what the server lists now (JSON); null for a tool no longer listed
 */
public record ToolChange(long id, String server, String tool, Kind kind, @Nullable String recorded,
        @Nullable String listed, Instant firstSeenAt, Instant lastSeenAt, Status status) {

    public enum Kind {
        /** The input schema differs. */
        SCHEMA,
        /** The annotations differ. */
        ANNOTATIONS,
        /** The server no longer lists the tool. */
        REMOVED
    }

    public enum Status {
        OPEN,
        ACCEPTED,
        REJECTED
    }
}

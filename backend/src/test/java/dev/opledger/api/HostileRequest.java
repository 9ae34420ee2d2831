package dev.opledger.api;

import dev.opledger.testing.RawHttp;
import java.util.Set;
import java.util.UUID;

/**
 * One generated request, the categories of its mutations, and what the node may answer.
 *
 * @param index its place in the run: the same seed generates the same request at the same index
 * @param preferenceApplied the {@code Preference-Applied} a 2xx answer carries, or null for none
 */
record HostileRequest(int index, String description, Set<String> categories, RawHttp.Request request,
        Expect expect, String preferenceApplied) {

    /** What the request deserves, known from how it was made. */
    sealed interface Expect {
    }

    /** A valid new command: a 2xx, and exactly one operation row for this subject and operationId. */
    record Creates(String subject, UUID operationId, String body) implements Expect {
    }

    /** The same command again by the same subject: a 2xx, and no new operation row. */
    record Replays(String subject, UUID operationId) implements Expect {
    }

    /**
     * A cancel of the caller's own operation: a 2xx, and nothing changes but the cancel's rows (its
     * record, the transition and the events of a first cancel; none for a repeat).
     */
    record Cancels() implements Expect {
    }

    /** A read of the caller's own operation: a 2xx, and nothing changes. */
    record Reads() implements Expect {
    }

    /** Anything else: a documented problem, and nothing changes. */
    record Refused() implements Expect {
    }
}

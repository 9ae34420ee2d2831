package dev.opledger.effect.internal;

import dev.opledger.classification.RepeatClass;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A step's record as stored.
 *
 * @param argumentDigest the digest of the arguments the record's calls were made with
 *     ({@link ArgumentDigest}); for a record written before digests were stored, computed from its
 *     arguments; null only when those cannot be canonicalised (unknown: equal to no digest)
 * @param taskId the downstream task the last call was answered with (MCP tasks extension), if any
 * @param taskPollIntervalMs the interval its server asked for between polls, if it said
 * @param resolution how a person resolved the record's unknown outcome (LANDED, GIVEN_UP); null
 *     when no one did, or after a NOT_LANDED (which removed the record)
 * @param replayGuard the guard a replay put on the step, not reached yet; null when none
 */
public record EffectRecord(String status, RepeatClass repeatClass, @Nullable Map<String, Object> result,
        @Nullable String error, int calls, @Nullable String argumentDigest, @Nullable String taskId,
        @Nullable String taskStatus, @Nullable Long taskPollIntervalMs, @Nullable String resolution,
        @Nullable ReplayGuard replayGuard) {

    /**
     * A replay's guard of the step, which its dry run found BLOCKED: the gateway stops before it,
     * or calls once when {@code acknowledgedBy} took responsibility for a possible second effect.
     */
    public record ReplayGuard(@Nullable String acknowledgedBy) {
        public boolean acknowledged() {
            return acknowledgedBy != null;
        }
    }

    /** A person gave the step up: it ends with their reason, and the tool is not called again. */
    public boolean givenUp() {
        return "GIVEN_UP".equals(resolution);
    }

    public boolean succeeded() {
        return "SUCCEEDED".equals(status);
    }

    public boolean started() {
        return "STARTED".equals(status);
    }

    public boolean failed() {
        return "FAILED".equals(status);
    }

    /** Whether the record's calls were made with these arguments; an unknown digest matches none. */
    public boolean madeWith(String digest) {
        return digest.equals(argumentDigest);
    }
}

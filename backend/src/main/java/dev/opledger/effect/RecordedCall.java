package dev.opledger.effect;

import dev.opledger.classification.RepeatClass;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A step's effect record as a replay plans from it.
 *
 * @param argumentDigest the digest of the arguments its calls were made with; null when unknown
 * @param resolution how a person resolved an unknown outcome of it (LANDED, GIVEN_UP), if they did
 * @param startedAt when the record's first call started: a record started after a checkpoint was
 *     written is an effect of a step after it
 */
public record RecordedCall(String stepKey, String server, String tool, RepeatClass repeatClass, EffectStatus status,
        @Nullable String argumentDigest, int calls, @Nullable String resolution, Instant startedAt) {

    /** A person gave the step up: whether its effect happened was never known. */
    public boolean givenUp() {
        return "GIVEN_UP".equals(resolution);
    }
}

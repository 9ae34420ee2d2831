package dev.opledger.effect;

import dev.opledger.classification.RepeatClass;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An effect whose outcome is unknown: its record is STARTED (a call was about to be made, or
 * made) and no outcome was recorded. The person who resolves it names it by {@link #stepKey()}
 * and {@link #startedAt()}, so a resolution meant for one call cannot apply to a later one.
 *
 * @param argumentDigest SHA-256 of the arguments' RFC 8785 form (lowercase hex); null for a record
 *     whose arguments have none
 * @param calls how many calls the record counts
 */
public record UnknownEffect(String stepKey, String server, String tool, RepeatClass repeatClass,
        @Nullable String argumentDigest, int calls, Instant startedAt) {
}

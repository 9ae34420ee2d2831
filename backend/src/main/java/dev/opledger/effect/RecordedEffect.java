package dev.opledger.effect;

import dev.opledger.classification.RepeatClass;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One step's effect record as the console shows it.
 *
 * @param repeatClass how the gateway repeats this tool's calls
 * @param idempotencyKey the key a keyed tool received; null for other classes
 * @param calls how many calls of the tool the step has made, in all runs
 * @param finishedAt when the outcome was recorded; null while STARTED
 * @param result the tool's result as JSON text, cut to {@link EffectLedger#MAX_TEXT_LENGTH}
 *     characters (ending in "…" when cut); null unless SUCCEEDED
 * @param error the tool's refusal, cut the same way; null unless FAILED
 */
public record RecordedEffect(String stepKey, String server, String tool, RepeatClass repeatClass, EffectStatus status,
        @Nullable String idempotencyKey, int calls, Instant startedAt, @Nullable Instant finishedAt,
        @Nullable String result, @Nullable String error) {
}

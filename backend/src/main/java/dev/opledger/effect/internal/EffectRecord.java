package dev.opledger.effect.internal;

import dev.opledger.classification.RepeatClass;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A step's record as stored. */
public record EffectRecord(String status, RepeatClass repeatClass, @Nullable Map<String, Object> result,
        @Nullable String error, int calls) {

    public boolean succeeded() {
        return "SUCCEEDED".equals(status);
    }

    public boolean started() {
        return "STARTED".equals(status);
    }
}

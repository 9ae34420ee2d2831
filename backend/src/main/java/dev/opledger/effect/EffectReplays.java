package dev.opledger.effect;

import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.operation.OperationId;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * The effect side of a replay from a checkpoint: the records a replay plans from, and the guards
 * the effect gateway follows in replay mode. Neither role-checked nor audited here: only the replay
 * stage's façade (which is both) calls it (ModularityTests).
 */
@Service
public class EffectReplays {

    private final EffectRecords records;

    EffectReplays(EffectRecords records) {
        this.records = records;
    }

    /** The operation's records whose first call started after {@code after}, in that order. */
    public List<RecordedCall> recordedAfter(OperationId operationId, Instant after) {
        return records.recordedAfter(operationId, after);
    }

    /**
     * Guards a step the replay's dry run found BLOCKED: when the fork reaches it, the gateway stops
     * the run before it (NEEDS_REVIEW), or, when {@code acknowledgedBy} names the person who took
     * responsibility for a possible second effect, makes one new call. A guard is used once; an
     * earlier replay's guards of the operation that were not reached are passed here.
     */
    public void guard(OperationId operationId, long replayId, String stepKey, String tool,
            @Nullable String acknowledgedBy) {
        records.guard(operationId, replayId, stepKey, tool, acknowledgedBy);
    }

    /** Passes the guards an earlier replay of the operation left unreached: a new replay's plan replaces them. */
    public void passGuards(OperationId operationId) {
        records.passGuards(operationId);
    }
}

package dev.opledger.effect;

import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.operation.OperationId;
import java.util.List;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.stereotype.Service;

/**
 * The effect records as support staff see them: what each step of an operation called, how it may
 * be repeated, and how it ended. Only SUPPORT (and ADMIN, which includes it) may read them.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class EffectLedger {

    /** Results and errors longer than this are cut for display. */
    public static final int MAX_TEXT_LENGTH = 300;

    private final EffectRecords records;

    EffectLedger(EffectRecords records) {
        this.records = records;
    }

    /** The operation's effect records, in the order their steps first started. */
    public List<RecordedEffect> recordsOf(OperationId operationId) {
        return records.recorded(operationId, MAX_TEXT_LENGTH);
    }
}

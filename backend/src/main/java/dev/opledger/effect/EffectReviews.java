package dev.opledger.effect;

import dev.opledger.effect.internal.ReviewRecords;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * The effect side of a person's resolution of an unknown outcome: neither role-checked nor
 * audited here, so only the review stage's façade (which is both, and also hands the operation
 * back to the workers in the same transaction) calls it.
 */
@Service
public class EffectReviews {

    /**
     * The key of the result a record gets when a person said its effect landed (the tool's own
     * answer is unknown): who said so; {@code note} holds what they found.
     */
    public static final String CONFIRMED_BY = "confirmedBy";

    private final ReviewRecords records;

    EffectReviews(ReviewRecords records) {
        this.records = records;
    }

    /** Whether a step's result is a person's word that its effect landed, rather than the tool's answer. */
    public static boolean confirmedByPerson(Map<String, Object> result) {
        return result.get(CONFIRMED_BY) instanceof String && result.containsKey("note") && result.size() == 2;
    }

    /** The call whose outcome is unknown, while the subject's operation is NEEDS_REVIEW. */
    public Optional<UnknownEffect> unknownEffect(SubjectId subject, OperationId operationId) {
        return records.unknown(subject, operationId);
    }

    /**
     * Resolves the unknown call of step {@code stepKey} started at {@code startedAt}: records the
     * resolution and changes the step's record as {@link EffectResolution} says. False, and nothing
     * written, when that call is no longer unknown, or the operation not in review, any more.
     */
    public boolean resolve(SubjectId subject, OperationId operationId, String stepKey, Instant startedAt,
            EffectResolution resolution, String actor, String note) {
        return records.resolve(subject, operationId, stepKey, startedAt, resolution, actor, note);
    }

    /** How the unknown call of step {@code stepKey} started at {@code startedAt} was resolved, once it was. */
    public Optional<EffectReview> review(OperationId operationId, String stepKey, Instant startedAt) {
        return records.review(operationId, stepKey, startedAt);
    }
}

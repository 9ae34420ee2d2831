package dev.opledger.review;

import dev.opledger.audit.AuditService;
import dev.opledger.claim.LedgerService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.EffectReview;
import dev.opledger.effect.EffectReviews;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Support staff's resolution of an operation in NEEDS_REVIEW whose step's call has an unknown
 * outcome, from the console. In one transaction: the resolution on the effect record
 * ({@link EffectReviews}, which also locks the operation's row, so of two people at once one
 * resolves and the other is told what was decided), the operation back to the workers through
 * {@link LifecycleService} (its status change, transition and event), and the audit entry. Only
 * SUPPORT (and ADMIN, which includes it) may resolve; every resolution needs a note.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class ReviewService {

    /** The longest note the ledger keeps with a resolution. */
    public static final int MAX_NOTE_LENGTH = 500;

    private final EffectReviews effects;
    private final LifecycleService lifecycle;
    private final LedgerService ledger;
    private final AuditService audit;

    ReviewService(EffectReviews effects, LifecycleService lifecycle, LedgerService ledger, AuditService audit) {
        this.effects = effects;
        this.lifecycle = lifecycle;
        this.ledger = ledger;
        this.audit = audit;
    }

    /** The call whose outcome is unknown, while the operation is NEEDS_REVIEW; empty otherwise. */
    @Transactional(readOnly = true)
    public Optional<UnknownEffect> unknownEffect(SubjectId subject, OperationId operationId) {
        return effects.unknownEffect(subject, operationId);
    }

    /**
     * Resolves the unknown call {@code unknown} (as the person saw it) of the subject's operation
     * with what they found downstream. Nothing changes unless that call is still the operation's
     * unknown one and the operation is still in review.
     *
     * @param note what the person found (LANDED, NOT_LANDED) or why they give up (GIVEN_UP); required
     */
    @Transactional
    public ReviewOutcome resolve(SubjectId subject, OperationId operationId, String stepKey, Instant startedAt,
            EffectResolution resolution, @Nullable String note) {
        String text = note == null ? "" : note.strip();
        if (text.isEmpty()) {
            return new ReviewOutcome.InvalidNote(resolution == EffectResolution.GIVEN_UP
                    ? "give the reason for giving up" : "say what you found downstream");
        }
        if (text.length() > MAX_NOTE_LENGTH) {
            return new ReviewOutcome.InvalidNote("a note is at most " + MAX_NOTE_LENGTH + " characters");
        }
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        String actor = who.getName();
        if (!effects.resolve(subject, operationId, stepKey, startedAt, resolution, actor, text)) {
            return refused(subject, operationId, stepKey, startedAt);
        }
        EffectReview review = effects.review(operationId, stepKey, startedAt).orElseThrow();
        String summary = summary(review);
        // the effect's statement held the operation's row in NEEDS_REVIEW until now: this cannot be refused
        if (!lifecycle.resolveReview(subject, operationId, actor, summary, resolution.name(), review.tool(), stepKey)) {
            throw new IllegalStateException("operation " + operationId + " left NEEDS_REVIEW while its row was locked");
        }
        audit.record(actor, action(resolution), operationId.toString(), summary, AuditService.clientAddress(who));
        return new ReviewOutcome.Resolved(review);
    }

    /** Why nothing changed; another subject's operation is not found, whatever was decided on it. */
    private ReviewOutcome refused(SubjectId subject, OperationId operationId, String stepKey, Instant startedAt) {
        Optional<OperationStatus> status = ledger.operation(subject, operationId).map(d -> d.operation().status());
        if (status.isEmpty()) {
            return new ReviewOutcome.NotFound();
        }
        Optional<EffectReview> decided = effects.review(operationId, stepKey, startedAt);
        if (decided.isPresent()) {
            return new ReviewOutcome.AlreadyResolved(decided.get());
        }
        if (status.get() != OperationStatus.NEEDS_REVIEW) {
            return new ReviewOutcome.NotInReview(status.get());
        }
        return new ReviewOutcome.NotTheUnknownEffect(effects.unknownEffect(subject, operationId).orElse(null));
    }

    static String action(EffectResolution resolution) {
        return switch (resolution) {
            case LANDED -> "RESOLVE_EFFECT_LANDED";
            case NOT_LANDED -> "RESOLVE_EFFECT_NOT_LANDED";
            case GIVEN_UP -> "GIVE_UP_OPERATION";
        };
    }

    /** The operation's status reason and the audit detail, e.g. "send_message of step receipt landed, said support: …". */
    static String summary(EffectReview review) {
        String effect = review.tool() + " of step " + review.stepKey();
        String found = switch (review.resolution()) {
            case LANDED -> effect + " landed, said " + review.actor() + "; the run goes on without calling it";
            case NOT_LANDED -> effect + " did not land, said " + review.actor() + "; the run calls it once more";
            case GIVEN_UP -> review.actor() + " gave up at " + effect;
        };
        return found + ": " + review.note();
    }
}

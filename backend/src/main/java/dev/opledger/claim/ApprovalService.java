package dev.opledger.claim;

import dev.opledger.audit.AuditService;
import dev.opledger.claim.internal.OperationReader;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Support staff's decisions on operations waiting for approval, from the console. Each decision
 * goes through {@link LifecycleService} (the status change, its transition and the approval row in
 * one statement) and is audited with who decided and why in the same transaction. A decision that
 * comes too late (someone decided first, or the operation is not waiting) changes nothing and says
 * so. Only SUPPORT (and ADMIN, which includes it) may decide.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class ApprovalService {

    /** The longest reason or note the ledger keeps with a decision. */
    public static final int MAX_REASON_LENGTH = 500;

    static final String APPROVE_ACTION = "APPROVE_OPERATION";
    static final String REJECT_ACTION = "REJECT_OPERATION";

    private final OperationReader reader;
    private final LifecycleService lifecycle;
    private final AuditService audit;

    ApprovalService(OperationReader reader, LifecycleService lifecycle, AuditService audit) {
        this.reader = reader;
        this.lifecycle = lifecycle;
        this.audit = audit;
    }

    /** Approves the operation: its graph goes on to the effect that needed approval. The note is optional. */
    @Transactional
    public ApprovalOutcome approve(SubjectId subject, OperationId operationId, @Nullable String note) {
        return decide(subject, operationId, true, optional(note));
    }

    /** Rejects the operation: its graph undoes what it did and ends FAILED. The reason is required. */
    @Transactional
    public ApprovalOutcome reject(SubjectId subject, OperationId operationId, String reason) {
        String required = optional(reason);
        if (required == null) {
            throw new IllegalArgumentException("give a reason for rejecting an operation");
        }
        return decide(subject, operationId, false, required);
    }

    private ApprovalOutcome decide(SubjectId subject, OperationId operationId, boolean approve, @Nullable String reason) {
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        String actor = who.getName();
        // The statement decides only on this subject's operation; why it did not is read afterwards.
        boolean decided = approve
                ? lifecycle.approve(subject, operationId, actor, reason)
                : lifecycle.reject(subject, operationId, actor, reason);
        if (!decided) {
            Optional<OperationStatus> status = reader.status(subject, operationId);
            if (status.isEmpty()) {
                return new ApprovalOutcome.NotFound();
            }
            return lifecycle.approval(operationId).<ApprovalOutcome>map(ApprovalOutcome.AlreadyDecided::new)
                    .orElseGet(() -> new ApprovalOutcome.NotAwaitingApproval(status.get()));
        }
        audit.record(actor, approve ? APPROVE_ACTION : REJECT_ACTION, operationId.toString(), reason,
                AuditService.clientAddress(who));
        return new ApprovalOutcome.Decided(lifecycle.approval(operationId).orElseThrow());
    }

    /** Stripped; null when blank; refused when longer than {@link #MAX_REASON_LENGTH}. */
    static @Nullable String optional(@Nullable String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String stripped = text.strip();
        if (stripped.length() > MAX_REASON_LENGTH) {
            throw new IllegalArgumentException("a reason is at most " + MAX_REASON_LENGTH + " characters");
        }
        return stripped;
    }
}

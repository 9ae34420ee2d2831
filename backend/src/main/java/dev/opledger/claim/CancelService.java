package dev.opledger.claim;

import dev.opledger.audit.AuditService;
import dev.opledger.claim.internal.OperationReader;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The one way to cancel an operation, for every caller: an operation's own subject through the
 * API or MCP ({@link #cancelOwn}: another subject's operationId is {@code NotFound} and changes
 * nothing), and support staff by operationId from any console view ({@link #cancelAsStaff}:
 * SUPPORT or ADMIN, audited). The request is one statement of {@link LifecycleService}; the
 * answer is read from the ledger afterwards, so every repeat and every concurrent duplicate gets
 * the answer of the one request recorded.
 */
@Service
public class CancelService {

    static final String CANCEL_ACTION = "CANCEL_OPERATION";

    private final OperationReader reader;
    private final LifecycleService lifecycle;
    private final AuditService audit;

    CancelService(OperationReader reader, LifecycleService lifecycle, AuditService audit) {
        this.reader = reader;
        this.lifecycle = lifecycle;
        this.audit = audit;
    }

    /**
     * Cancels the subject's own operation; the subject is the one its verified token names.
     *
     * @param channel {@link CancelChannel#REST} or {@link CancelChannel#MCP}
     */
    public CancelOutcome cancelOwn(SubjectId subject, OperationId operationId, CancelChannel channel) {
        if (channel == CancelChannel.CONSOLE) {
            throw new IllegalArgumentException("support staff cancel with cancelAsStaff, which is role-checked and audited");
        }
        lifecycle.requestCancel(subject, operationId, "subject:" + subject.value(), channel, null);
        return outcome(operationId, () -> reader.find(subject, operationId));
    }

    /**
     * Cancels any subject's operation, for support staff (the operation view, the stuck-tasks
     * view); audited with the reason when this call recorded the cancel. The reason is optional.
     */
    @Transactional
    @PreAuthorize("hasRole('SUPPORT')")
    public CancelOutcome cancelAsStaff(OperationId operationId, @Nullable String reason) {
        String note = ApprovalService.optional(reason);
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        boolean requested = lifecycle.requestCancel(null, operationId, "console:" + who.getName(), CancelChannel.CONSOLE,
                note);
        if (requested) {
            audit.record(who.getName(), CANCEL_ACTION, operationId.toString(), note, AuditService.clientAddress(who));
        }
        return outcome(operationId, () -> reader.find(operationId));
    }

    /**
     * The cancel is read before the operation: its resolution and the operation's last status
     * change are one statement, so a resolved cancel is never paired with a status from before.
     */
    private CancelOutcome outcome(OperationId operationId, Supplier<Optional<OperationState>> read) {
        Optional<CancelRecord> cancel = lifecycle.cancel(operationId);
        Optional<OperationState> operation = read.get();
        if (operation.isEmpty()) {
            return new CancelOutcome.NotFound();
        }
        if (cancel.isEmpty()) {
            return new CancelOutcome.AlreadyEnded(operation.get());
        }
        return cancel.get().pending()
                ? new CancelOutcome.Pending(operation.get(), cancel.get())
                : new CancelOutcome.Resolved(operation.get(), cancel.get());
    }
}

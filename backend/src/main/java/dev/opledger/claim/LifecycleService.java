package dev.opledger.claim;

import dev.opledger.claim.internal.LifecycleStatements;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;

/**
 * Where every status change of an operation happens, each in one statement that also writes its
 * transition row and its outbox event. Workers lease operations
 * with {@code FOR UPDATE SKIP LOCKED} and keep them with heartbeats; a lease that expired is taken
 * over by the next worker that asks.
 *
 * <p>The public methods are the workers' side (lease, heartbeat, finish) and reads. A person's
 * decisions ({@link #approve}, {@link #reject}, {@link #decide}) are package-private: they are
 * neither role-checked nor audited here, so only {@link ApprovalService}, which is both, calls them.
 */
@Service
public class LifecycleService {

    private final LifecycleStatements statements;
    private final ApplicationEventPublisher events;

    LifecycleService(LifecycleStatements statements, ApplicationEventPublisher events) {
        this.statements = statements;
        this.events = events;
    }

    /** Up to {@code max} operations, ACCEPTED first, then RUNNING ones whose lease expired; now RUNNING for {@code node}. */
    public List<LeasedOperation> lease(String node, int max, Duration lease) {
        if (max < 1) {
            return List.of();
        }
        return statements.lease(node, max, lease);
    }

    /**
     * Extends the node's leases, each in its own epoch, in one statement; returns those it still
     * holds (a lease it lost is missing) and which of them have a cancel pending.
     */
    public Heartbeat heartbeat(String node, Collection<Fence> fences, Duration lease) {
        if (fences.isEmpty()) {
            return Heartbeat.NONE;
        }
        return statements.heartbeat(node, fences, lease);
    }

    /**
     * Ends a run the node holds in the fence's epoch: RUNNING → {@code to}, the lease released.
     * False, and nothing written, when the node no longer holds that lease (another node took the
     * operation over): the caller must stop. A cancel pending on the operation is acknowledged by
     * {@code node} and resolved in the same statement (a run that stopped awaiting approval then
     * ends CANCELLED): see {@link CancelResolution}.
     */
    public boolean finishRun(Fence fence, String node, OperationStatus to, @Nullable String reason) {
        if (to == OperationStatus.RUNNING || to == OperationStatus.ACCEPTED) {
            throw new IllegalArgumentException("a run ends in a status other than " + to);
        }
        return statements.finishRun(fence, node, to, reason, FailureKind.OUTCOME);
    }

    /**
     * As {@link #finishRun} to FAILED, for a run that broke down (it threw) rather than failing
     * on its own terms: the operation records {@link FailureKind#BROKE_DOWN}, which the MCP
     * tasks view reports as a failed task with a JSON-RPC error.
     */
    public boolean breakDown(Fence fence, String node, String reason) {
        return statements.finishRun(fence, node, OperationStatus.FAILED, reason, FailureKind.BROKE_DOWN);
    }

    /** A person's decision on an operation that no worker holds: {@code from} → {@code to}. */
    boolean decide(OperationId operationId, OperationStatus from, OperationStatus to, String actor, String reason) {
        boolean decided = statements.decide(operationId, from, to, actor, reason);
        return to == OperationStatus.ACCEPTED ? accepted(decided) : decided;
    }

    /**
     * Records a person's approval of an operation in AWAITING_APPROVAL and hands it back to the
     * workers (→ ACCEPTED), in one statement. False when the subject has no such operation or it
     * is not awaiting approval (any more).
     */
    boolean approve(SubjectId subject, OperationId operationId, String actor, @Nullable String reason) {
        return accepted(statements.decideApproval(subject, operationId, true, actor, reason));
    }

    /** As {@link #approve}, for a rejection: the resumed graph undoes its effects and ends FAILED. */
    boolean reject(SubjectId subject, OperationId operationId, String actor, @Nullable String reason) {
        return accepted(statements.decideApproval(subject, operationId, false, actor, reason));
    }

    private boolean accepted(boolean decided) {
        if (decided) {
            events.publishEvent(new OperationAccepted());
        }
        return decided;
    }

    /**
     * Records a cancel of the operation, unless one is recorded or the operation has ended: one
     * that no worker holds (ACCEPTED, AWAITING_APPROVAL) is CANCELLED at once, a RUNNING one's
     * worker stops at its next step boundary ({@link #finishRun} resolves it). True when this call
     * recorded it. {@code subject} null: whichever subject's it is. Only {@link CancelService},
     * which checks who asks, calls it.
     */
    boolean requestCancel(@Nullable SubjectId subject, OperationId operationId, String requestedBy,
            CancelChannel channel, @Nullable String reason) {
        return statements.requestCancel(subject, operationId, requestedBy, channel, reason);
    }

    /** The operation's cancel, once someone asked for one. */
    public Optional<CancelRecord> cancel(OperationId operationId) {
        return statements.cancel(operationId);
    }

    /** The decision on the operation's approval, once a person made it. */
    public Optional<ApprovalDecision> approval(OperationId operationId) {
        return statements.approval(operationId);
    }

    /** The operation's status changes, oldest first. */
    public List<TransitionRecord> transitions(OperationId operationId) {
        return statements.transitions(operationId);
    }
}

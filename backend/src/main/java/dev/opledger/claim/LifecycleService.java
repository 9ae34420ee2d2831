package dev.opledger.claim;

import dev.opledger.claim.internal.LeaseMeters;
import dev.opledger.claim.internal.LifecycleStatements;
import dev.opledger.claim.internal.OperationNotifications;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SqlStatement;
import dev.opledger.operation.SubjectId;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
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
    private final OperationNotifications notifications;
    private final LeaseMeters meters;

    LifecycleService(LifecycleStatements statements, OperationNotifications notifications, LeaseMeters meters) {
        this.statements = statements;
        this.notifications = notifications;
        this.meters = meters;
    }

    /** Up to {@code max} operations, ACCEPTED first, then RUNNING ones whose lease expired; now RUNNING for {@code node}. */
    public List<LeasedOperation> lease(String node, int max, Duration lease) {
        if (max < 1) {
            return List.of();
        }
        List<LeasedOperation> leased = statements.lease(node, max, lease);
        int takenOver = (int) leased.stream().filter(o -> o.leasedFrom() == OperationStatus.RUNNING).count();
        if (takenOver > 0) {
            meters.tookOver(takenOver);
        }
        return leased;
    }

    /**
     * Extends the node's leases, each in its own epoch, in one statement; returns those it still
     * holds (a lease it lost is missing) and which of them have a cancel pending.
     */
    public Heartbeat heartbeat(String node, Collection<Fence> fences, Duration lease) {
        if (fences.isEmpty()) {
            return Heartbeat.NONE;
        }
        Heartbeat beat = statements.heartbeat(node, fences, lease);
        int lost = (int) fences.stream().distinct().filter(fence -> !beat.held().contains(fence)).count();
        if (lost > 0) {
            meters.heartbeatRefused(lost);
        }
        return beat;
    }

    /**
     * Ends a run the node holds in the fence's epoch: RUNNING → {@code to}, the lease released.
     * False, and nothing written, when the node no longer holds that lease (another node took the
     * operation over): the caller must stop. A cancel pending on the operation is acknowledged by
     * {@code node} and resolved in the same statement (a run that stopped awaiting approval then
     * ends CANCELLED): see {@link CancelResolution}.
     */
    public boolean finishRun(Fence fence, String node, OperationStatus to, @Nullable String reason) {
        return finish(finishing(fence, node, to, reason));
    }

    /**
     * As {@link #finishRun} to FAILED, for a run that broke down (it threw) rather than failing
     * on its own terms: the operation records {@link FailureKind#BROKE_DOWN}, which the MCP
     * tasks view reports as a failed task with a JSON-RPC error.
     */
    public boolean breakDown(Fence fence, String node, String reason) {
        return finish(breakingDown(fence, node, reason));
    }

    /**
     * {@link #finishRun} as one statement, for a worker that sends it with the writes its run held
     * in one round trip (issue 13); what it answered goes to {@link #settled} once it has committed.
     */
    public SqlStatement<Optional<OperationState>> finishing(Fence fence, String node, OperationStatus to,
            @Nullable String reason) {
        return statements.finishing(fence, node, endOfRun(to), reason, FailureKind.OUTCOME);
    }

    /** {@link #breakDown} as one statement, as {@link #finishing}. */
    public SqlStatement<Optional<OperationState>> breakingDown(Fence fence, String node, String reason) {
        return statements.finishing(fence, node, OperationStatus.FAILED, reason, FailureKind.BROKE_DOWN);
    }

    /** The end of a run ({@link #finishing}, {@link #breakingDown}) on its own: {@link #finishRun}. */
    public boolean finish(SqlStatement<Optional<OperationState>> end) {
        return settled(statements.run(end));
    }

    /**
     * The end of a run as its committed statement ({@link #finishing}, {@link #breakingDown})
     * answered it: the operation's waiters get its state; false when the lease was no longer the
     * node's (nothing was written). Every status a run ends in ends a wait.
     */
    public boolean settled(Optional<OperationState> finished) {
        finished.ifPresentOrElse(notifications::settled, meters::finishRefused);
        return finished.isPresent();
    }

    private static OperationStatus endOfRun(OperationStatus to) {
        if (to == OperationStatus.RUNNING || to == OperationStatus.ACCEPTED) {
            throw new IllegalArgumentException("a run ends in a status other than " + to);
        }
        return to;
    }

    /**
     * Ends a run that needs input from the client: its requests ({@code requests}, JSON by key)
     * are recorded and the operation stops AWAITING_INPUT, in one transaction, fenced like
     * {@link #finishRun} (false, nothing written, when the lease is no longer the node's). A cancel
     * pending ends it CANCELLED instead. Its waiters ({@code Prefer: wait}) get it: the client has
     * to act.
     */
    public boolean awaitInput(Fence fence, String node, Map<String, String> requests, @Nullable String reason) {
        StringBuilder json = new StringBuilder("{");
        requests.forEach((key, request) -> json.append(json.length() > 1 ? "," : "").append(quoted(key)).append(':')
                .append(request));
        return settled(statements.awaitInput(fence, node, json.append('}').toString(), requests.size(), reason));
    }

    /**
     * The client's answers to the open requests of the subject's operation ({@code responses}: a
     * JSON object by request key, each value checked by the caller against its request): each is
     * recorded once, keys not open are ignored (as the MCP specification says), and the operation
     * goes back to the workers once none is left open. Serialised on the operation's row: of
     * concurrent identical answers one records and resumes, the others find nothing open.
     */
    public InputOutcome answerInput(SubjectId subject, OperationId operationId, String responses, String answeredBy) {
        return statements.answerInput(subject, operationId, responses, answeredBy)
                .filter(recorded -> !recorded.answered().isEmpty())
                .<InputOutcome>map(recorded -> {
                    if (recorded.resumed()) {
                        notifications.accepted();
                    }
                    return recorded;
                })
                .orElseGet(InputOutcome.NothingOpen::new);
    }

    /** The operation's requests for input from the client and their answers, oldest first. */
    public List<ClientInput> inputs(OperationId operationId) {
        return statements.inputs(operationId);
    }

    private static String quoted(String key) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : key.toCharArray()) {
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c < 0x20) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    /** A person's decision on an operation that no worker holds: {@code from} → {@code to}. */
    boolean decide(OperationId operationId, OperationStatus from, OperationStatus to, String actor, String reason) {
        boolean decided = statements.decide(operationId, from, to, actor, reason);
        return to == OperationStatus.ACCEPTED ? accepted(decided) : settled(operationId, to, decided);
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

    /**
     * Hands an operation in NEEDS_REVIEW back to the workers (→ ACCEPTED) after a person resolved
     * the unknown outcome of step {@code stepKey}'s effect, in one statement with its transition and
     * its {@code ReviewResolved} event. False when the subject has no such operation or it is not in
     * review (any more). Public for the review stage, whose façade checks the role, audits, and
     * records the resolution on the effect in the same transaction; nothing else calls it (an
     * ArchUnit rule, {@code ModularityTests}).
     */
    public boolean resolveReview(SubjectId subject, OperationId operationId, String actor, String summary,
            String resolution, String tool, String stepKey) {
        return accepted(statements.resolveReview(subject, operationId, actor, summary, resolution, tool, stepKey));
    }

    /**
     * The subject's operation, its row locked {@code FOR UPDATE} until the caller's transaction
     * ends; empty when the subject has no such operation. For the replay stage's start, which
     * compares its dry run with the records while nothing can change them, and then calls
     * {@link #startReplay} in the same transaction; nothing else calls either (ModularityTests).
     */
    public Optional<ReplayLock> lockForReplay(SubjectId subject, OperationId operationId) {
        return statements.lockForReplay(subject, operationId, true);
    }

    /** As {@link #lockForReplay}, without the lock: what a dry run reads. */
    public Optional<ReplayLock> readForReplay(SubjectId subject, OperationId operationId) {
        return statements.lockForReplay(subject, operationId, false);
    }

    /**
     * Hands the subject's operation back to the workers (→ ACCEPTED) for a replay, in one statement
     * with its transition and its {@code ReplayStarted} event, when it is in one of {@code
     * replayable} and no worker holds it: its failure kind and reason are cleared, and the approval
     * decided after {@code checkpointAt} is removed (the replayed graph asks for it again) and
     * returned. Empty, and nothing changed, otherwise. Only the replay stage, which checks the role,
     * audits and forks the graph in the same transaction, calls it.
     */
    public Optional<ReplayStart> startReplay(SubjectId subject, OperationId operationId, Set<OperationStatus> replayable,
            String actor, String reason, java.util.UUID fromCheckpoint, java.time.Instant checkpointAt) {
        Optional<ReplayStart> started = statements.startReplay(subject, operationId, replayable, actor, reason,
                fromCheckpoint, checkpointAt);
        accepted(started.isPresent());
        return started;
    }

    private boolean accepted(boolean decided) {
        if (decided) {
            notifications.accepted();
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
        boolean recorded = statements.requestCancel(subject, operationId, requestedBy, channel, reason);
        if (recorded) {
            // one that no worker held is CANCELLED now: its waiters read it (a RUNNING one's keep waiting)
            notifications.settled(operationId);
        }
        return recorded;
    }

    /** The operation's cancel, once someone asked for one. */
    public Optional<CancelRecord> cancel(OperationId operationId) {
        return statements.cancel(operationId);
    }

    // The requests waiting for it (Prefer: wait), on this node and on the others.
    private boolean settled(OperationId operationId, OperationStatus to, boolean changed) {
        if (changed && OperationWaits.endsWait(to)) {
            notifications.settled(operationId);
        }
        return changed;
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

package dev.opledger.replay;

import dev.opledger.audit.AuditService;
import dev.opledger.claim.ApprovalDecision;
import dev.opledger.claim.LifecycleService;
import dev.opledger.claim.ReplayLock;
import dev.opledger.claim.ReplayStart;
import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.EffectReplays;
import dev.opledger.effect.EffectStatus;
import dev.opledger.effect.RecordedCall;
import dev.opledger.graph.CheckpointEntry;
import dev.opledger.graph.GraphService;
import dev.opledger.graph.OperationType;
import dev.opledger.graph.OperationTypes;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.replay.internal.PlanDigest;
import dev.opledger.replay.internal.ReplayRecords;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Replay of an operation from one of its checkpoints, from the console. A dry run (SUPPORT and
 * ADMIN) plans from the effect records started after the checkpoint; a start (ADMIN only, checked
 * here) is bound to a dry run by its digest and, in one transaction with the operation's row locked:
 * checks that nothing changed since, forks the graph from the checkpoint
 * ({@link GraphService#fork}), hands the operation back to the workers with its transition and
 * {@code ReplayStarted} event ({@link LifecycleService#startReplay}, which also removes an approval
 * decided after the checkpoint), guards the blocked steps for the effect gateway
 * ({@link EffectReplays#guard}) and audits who started it and which blocked effects they took
 * responsibility for. Of two admins at once, the row lock lets one start and tells the other.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class ReplayService {

    /** An operation at rest that no worker holds: what a replay may start from. */
    public static final Set<OperationStatus> REPLAYABLE = EnumSet.of(OperationStatus.SUCCEEDED, OperationStatus.FAILED,
            OperationStatus.NEEDS_REVIEW);

    private final LifecycleService lifecycle;
    private final GraphService graphs;
    private final EffectReplays effects;
    private final ReplayRecords replays;
    private final AuditService audit;
    private final JsonMapper json;
    private final OperationTypes types;

    ReplayService(LifecycleService lifecycle, GraphService graphs, EffectReplays effects, ReplayRecords replays,
            AuditService audit, JsonMapper json, OperationTypes types) {
        this.types = types;
        this.lifecycle = lifecycle;
        this.graphs = graphs;
        this.effects = effects;
        this.replays = replays;
        this.audit = audit;
        this.json = json;
    }

    /** What a replay of the subject's operation from {@code checkpointId} would do; audited, changes nothing else. */
    @Transactional
    public DryRunOutcome dryRun(SubjectId subject, OperationId operationId, UUID checkpointId) {
        Optional<ReplayLock> read = lifecycle.readForReplay(subject, operationId);
        if (read.isEmpty()) {
            return new DryRunOutcome.NotFound();
        }
        Optional<String> notReplayable = notReplayable(read.get());
        if (notReplayable.isPresent()) {
            return new DryRunOutcome.NotReplayable(read.get().status(), notReplayable.get());
        }
        Optional<CheckpointEntry> checkpoint = graphs.checkpoint(operationId, checkpointId);
        if (checkpoint.isEmpty()) {
            return new DryRunOutcome.CheckpointNotFound(checkpointId);
        }
        ReplayPlan plan = plan(operationId, checkpoint.get(), read.get());
        Optional<String> compensated = compensatedAfter(plan, read.get());
        if (compensated.isPresent()) {
            return new DryRunOutcome.NotReplayable(read.get().status(), compensated.get());
        }
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        audit.record(who.getName(), "REPLAY_DRY_RUN", operationId.toString(), summary(plan),
                AuditService.clientAddress(who));
        return new DryRunOutcome.Planned(plan);
    }

    /**
     * Starts the replay the dry run with {@code planDigest} showed, if nothing changed since.
     *
     * @param acknowledged the blocked steps (by step key) the person takes responsibility for: each
     *     is called once more; a blocked step not named stops the replay before it with NEEDS_REVIEW
     */
    @Transactional
    public ReplayStartOutcome start(SubjectId subject, OperationId operationId, UUID checkpointId, String planDigest,
            Collection<String> acknowledged) {
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        if (who.getAuthorities().stream().map(GrantedAuthority::getAuthority).noneMatch("ROLE_ADMIN"::equals)) {
            return new ReplayStartOutcome.NotAllowed("only an admin may start a replay; support may see its dry run");
        }
        Optional<ReplayLock> locked = lifecycle.lockForReplay(subject, operationId);
        if (locked.isEmpty()) {
            return new ReplayStartOutcome.NotFound();
        }
        Optional<ReplayRecords.Active> active = replays.active(operationId);
        if (active.isPresent()) {
            return new ReplayStartOutcome.AlreadyReplaying(active.get().actor(), active.get().startedAt());
        }
        Optional<String> notReplayable = notReplayable(locked.get());
        if (notReplayable.isPresent()) {
            return new ReplayStartOutcome.NotReplayable(locked.get().status(), notReplayable.get());
        }
        Optional<CheckpointEntry> checkpoint = graphs.checkpoint(operationId, checkpointId);
        if (checkpoint.isEmpty()) {
            return new ReplayStartOutcome.CheckpointNotFound(checkpointId);
        }
        ReplayPlan plan = plan(operationId, checkpoint.get(), locked.get());
        Optional<String> compensated = compensatedAfter(plan, locked.get());
        if (compensated.isPresent()) {
            return new ReplayStartOutcome.NotReplayable(locked.get().status(), compensated.get());
        }
        if (!plan.digest().equals(planDigest)) {
            // another admin started this very dry run's replay, and it has come to rest already
            Optional<ReplayRecords.Active> same = replays.startedWith(operationId, planDigest);
            if (same.isPresent()) {
                return new ReplayStartOutcome.AlreadyReplaying(same.get().actor(), same.get().startedAt());
            }
            return new ReplayStartOutcome.StalePlan(plan);
        }
        Set<String> blocked = new TreeSet<>(plan.blocked().stream().map(PlannedEffect::stepKey).toList());
        Set<String> named = new TreeSet<>(acknowledged);
        List<String> notBlocked = named.stream().filter(key -> !blocked.contains(key)).toList();
        if (!notBlocked.isEmpty()) {
            return new ReplayStartOutcome.NotBlocked(notBlocked);
        }
        String actor = who.getName();
        UUID fork = graphs.fork(operationId, checkpointId).orElseThrow(() -> new IllegalStateException(
                "checkpoint " + checkpointId + " of " + operationId + " vanished while its operation was locked"));
        String reason = "replay from checkpoint " + checkpointId + " (after " + checkpoint.get().nodeId() + ", next "
                + checkpoint.get().nextNodeId() + ") started by " + actor;
        ReplayStart started = lifecycle.startReplay(subject, operationId, REPLAYABLE, actor, reason, checkpointId,
                checkpoint.get().createdAt()).orElseThrow(() -> new IllegalStateException(
                        "operation " + operationId + " left " + locked.get().status() + " while its row was locked"));
        long replayId = replays.insert(operationId, checkpointId, fork, plan.digest(), started.from().name(), actor,
                json.writeValueAsString(plan.effects()),
                started.undoneApproval().map(json::writeValueAsString).orElse(null));
        effects.passGuards(operationId);
        for (PlannedEffect effect : plan.blocked()) {
            effects.guard(operationId, replayId, effect.stepKey(), effect.tool(),
                    named.contains(effect.stepKey()) ? actor : null);
        }
        String client = AuditService.clientAddress(who);
        audit.record(actor, "REPLAY_STARTED", operationId.toString(), reason + "; " + summary(plan), client);
        for (PlannedEffect effect : plan.blocked()) {
            if (named.contains(effect.stepKey())) {
                audit.record(actor, "REPLAY_ACKNOWLEDGED_EFFECT", operationId.toString(), actor
                        + " takes responsibility for a possible second effect of " + effect.tool() + " (step "
                        + effect.stepKey() + ", " + effect.repeatClass() + ", recorded " + effect.recorded()
                        + "): the replay calls it once more", client);
            }
        }
        return new ReplayStartOutcome.Started(replayId, fork, plan, List.copyOf(named));
    }

    /** A compensation that landed after the checkpoint: the fork would go on from what it undid. */
    private Optional<String> compensatedAfter(ReplayPlan plan, ReplayLock operation) {
        var steps = types.find(operation.commandType()).map(OperationType::compensationSteps).orElse(Set.of());
        return plan.effects().stream()
                .filter(effect -> effect.recorded() == EffectStatus.SUCCEEDED && steps.contains(effect.stepKey()))
                .findFirst()
                .map(effect -> "its compensation " + effect.stepKey() + " (" + effect.tool() + ") ran after this "
                        + "checkpoint: a replay from here would go on from what it undid, with the undone effect "
                        + "served from its record; replay from a checkpoint after it, or submit a new operation");
    }

    private static Optional<String> notReplayable(ReplayLock operation) {
        if (operation.held() || !REPLAYABLE.contains(operation.status())) {
            return Optional.of("the operation is " + operation.status() + (operation.held() ? " on a worker" : "")
                    + ": a replay starts from an operation at rest (" + REPLAYABLE + ")");
        }
        return Optional.empty();
    }

    private ReplayPlan plan(OperationId operationId, CheckpointEntry checkpoint, ReplayLock operation) {
        List<RecordedCall> recorded = effects.recordedAfter(operationId, checkpoint.createdAt());
        List<PlannedEffect> planned = recorded.stream().map(ReplayService::planned).toList();
        Optional<ApprovalDecision> approval = lifecycle.approval(operationId)
                .filter(decision -> decision.decidedAt().isAfter(checkpoint.createdAt()));
        List<String> parts = new ArrayList<>(List.of(operationId.toString(), checkpoint.checkpointId().toString(),
                operation.status().name(), Long.toString(operation.eventSequence()),
                approval.map(decision -> decision.decidedAt().toString()).orElse("no approval after")));
        for (int i = 0; i < recorded.size(); i++) {
            RecordedCall call = recorded.get(i);
            parts.add(String.join("|", call.stepKey(), call.tool(), call.repeatClass().name(), call.status().name(),
                    String.valueOf(call.argumentDigest()), Integer.toString(call.calls()),
                    String.valueOf(call.resolution()), planned.get(i).action().name()));
        }
        return new ReplayPlan(operationId, checkpoint, operation.status(), planned, approval, PlanDigest.of(parts));
    }

    /** The dry run's rule for one record (docs/replay.md). */
    static PlannedEffect planned(RecordedCall call) {
        RepeatClass repeatClass = call.repeatClass();
        boolean newCallAllowed = repeatClass == RepeatClass.IDEMPOTENT || repeatClass == RepeatClass.READ;
        String otherArguments = newCallAllowed ? "; asked with other arguments, it is called with them"
                : "; asked with other arguments, it is BLOCKED and the replay stops before it";
        ReplayAction action;
        String why;
        if (call.givenUp()) {
            action = ReplayAction.BLOCKED;
            why = "a person gave this step up after its outcome was unknown: whether its effect landed is not known";
        } else if (call.status() == EffectStatus.SUCCEEDED) {
            action = ReplayAction.SERVED;
            why = "recorded SUCCEEDED: served from its record with the same arguments, the tool is not called"
                    + otherArguments;
        } else if (call.status() == EffectStatus.FAILED) {
            action = ReplayAction.CALLED;
            why = "the tool refused it (FAILED), so it had no effect: called again as a first call"
                    + (repeatClass == RepeatClass.KEYED ? ", with the same idempotency key" : "");
        } else {
            switch (repeatClass) {
                case IDEMPOTENT, READ -> {
                    action = ReplayAction.CALLED;
                    why = "outcome unknown (STARTED): called again, the tool is idempotent";
                }
                case KEYED -> {
                    action = ReplayAction.CALLED;
                    why = "outcome unknown (STARTED): called again with the same idempotency key, so the tool "
                            + "answers the first call's result if it landed";
                }
                case CHECK_THEN_WRITE -> {
                    action = ReplayAction.CALLED;
                    why = "outcome unknown (STARTED): its check runs first, and it writes only if the effect did not land";
                }
                case NEVER_REPEAT -> {
                    action = ReplayAction.BLOCKED;
                    why = "never-repeat and its outcome is unknown (STARTED): a second call could repeat the effect";
                }
                default -> throw new IllegalStateException("repeat class " + repeatClass);
            }
        }
        return new PlannedEffect(call.stepKey(), call.server(), call.tool(), repeatClass, call.status(), action, why);
    }

    /** The audit's detail of a plan, e.g. "from checkpoint … after reserve: receipt send_message BLOCKED, …". */
    private static String summary(ReplayPlan plan) {
        Map<String, String> rows = new LinkedHashMap<>();
        plan.effects().forEach(effect -> rows.put(effect.stepKey(), effect.tool() + " " + effect.action()));
        String text = "plan " + plan.digest().substring(0, 12) + " from checkpoint " + plan.checkpoint().checkpointId()
                + " after " + plan.checkpoint().nodeId() + ": " + (rows.isEmpty() ? "no effect recorded after it"
                        : String.join(", ", rows.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList()))
                + plan.approvalAskedAgain().map(decision -> "; the approval by " + decision.actor() + " is asked again")
                        .orElse("");
        return text.length() > 1000 ? text.substring(0, 999) + "…" : text;
    }
}

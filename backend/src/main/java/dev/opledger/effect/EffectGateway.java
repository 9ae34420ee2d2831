package dev.opledger.effect;

import dev.opledger.classification.ClassificationService;
import dev.opledger.classification.RepeatClass;
import dev.opledger.classification.ToolClass;
import dev.opledger.effect.internal.CrashPoint;
import dev.opledger.effect.internal.CrashPoint.Point;
import dev.opledger.effect.internal.EffectRecord;
import dev.opledger.effect.internal.EffectMeters;
import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.effect.internal.RegistryCheck;
import dev.opledger.effect.internal.StepLocks;
import dev.opledger.mcp.DownstreamTask;
import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolAnswer;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import dev.opledger.mcp.ToolUnreachableException;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationMdc;
import dev.opledger.operation.SqlStatement;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

/**
 * Performs effects so that a repeat (a resumed node, an automatic retry) never duplicates one:
 * a recorded success made with the same arguments is served without a call; otherwise the tool's
 * repeat class decides — idempotent: call; keyed: call with the same idempotency key;
 * check-then-write: read first and write only if the effect has not landed; never-repeat: after
 * an unknown outcome, do not call, ask a person. A repeat of a step with other arguments (their
 * digest differs from the record's) is a new effect only where that cannot duplicate one: for an
 * idempotent tool, or after the tool refused; otherwise a person decides. STARTED is committed
 * before each call, the outcome after it, before returning; inside a worker's run a success
 * commits instead with the step's checkpoint, before the next step ({@link RunWrites}). Every record is fenced by the
 * effect's lease epoch: when the database refuses STARTED (another node took the operation over)
 * the tool is not called, and the outcome is {@code LeaseLost}; when it is refused for a cancel
 * requested, {@code CancelRequested} (no effect starts after a cancel); within this node, performs
 * of one step key run one at a time. A record a person resolved after an unknown outcome
 * ({@link EffectReviews}) is followed: LANDED is a success served like any, GIVEN_UP ends the step
 * without a call, and NOT_LANDED left no record, so the step calls once, as a first time.
 *
 * <p>Every call declares the MCP tasks extension: a server may answer with a task instead of the
 * result. The task's handle is committed to the effect record before the first poll, the task is
 * polled as often as its server asks, and a run that finds a handle (another node after a crash,
 * a lease taken over) polls it: it never calls the tool again for that call. The task's end is
 * the effect's outcome, as a reply would be (docs/mcp.md, "Outbound").
 */
@Service
public class EffectGateway {

    private static final Logger log = LoggerFactory.getLogger(EffectGateway.class);
    /** How often a step waiting for an unreachable server lists its tools. */
    private static final Duration UNREACHABLE_POLL = Duration.ofSeconds(1);
    /** Never faster than this, whatever a server suggests (a pollIntervalMs of 0 would spin). */
    private static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(50);

    private final EffectRecords records;
    private final ClassificationService classification;
    private final Supplier<ToolClient> tools;
    private final EffectProperties properties;
    private final CrashPoint crash;
    private final EffectMeters meters;
    private final StepLocks steps = new StepLocks();
    private final @Nullable RunWrites held;

    @Autowired
    EffectGateway(EffectRecords records, ClassificationService classification, ObjectProvider<ToolClient> tools,
            EffectProperties properties, CrashPoint crash, EffectMeters meters, RunWrites held) {
        this(records, classification, (Supplier<ToolClient>) tools::getObject, properties, crash, meters, held);
    }

    /** For tests that build a gateway of their own: its effects are counted in a registry of its own. */
    EffectGateway(EffectRecords records, ClassificationService classification, Supplier<ToolClient> tools,
            EffectProperties properties, CrashPoint crash) {
        this(records, classification, tools, properties, crash, new EffectMeters(new SimpleMeterRegistry()));
    }

    EffectGateway(EffectRecords records, ClassificationService classification, Supplier<ToolClient> tools,
            EffectProperties properties, CrashPoint crash, EffectMeters meters) {
        this(records, classification, tools, properties, crash, meters, null);
    }

    /** With {@code held}: a success inside a worker's run is held for the run's next checkpoint ({@link RunWrites}). */
    EffectGateway(EffectRecords records, ClassificationService classification, Supplier<ToolClient> tools,
            EffectProperties properties, CrashPoint crash, EffectMeters meters, @Nullable RunWrites held) {
        this.held = held;
        this.records = records;
        this.classification = classification;
        this.tools = tools;
        this.properties = properties;
        this.crash = crash;
        this.meters = meters;
    }

    public EffectOutcome perform(Effect effect) {
        try (var ignored = OperationMdc.put(effect.operationId())) {
            var looked = new ClassLookedUp();
            EffectOutcome outcome = steps.holding(effect.operationId() + " " + effect.stepKey(),
                    () -> performFor(effect, looked));
            meters.count(effect.tool(), looked.repeatClass, outcome); // in memory: no statement
            return outcome;
        }
    }

    /** The tool's repeat class, once {@link #performFor} has looked it up (an outcome from the record has none). */
    private static final class ClassLookedUp {
        @Nullable RepeatClass repeatClass;
    }

    private EffectOutcome performFor(Effect effect, ClassLookedUp looked) {
        Optional<String> argumentDigest = records.argumentDigest(effect.arguments());
        if (argumentDigest.isEmpty()) {
            return needsReview(effect, "the arguments of step " + effect.stepKey() + " for " + effect.tool()
                    + " have no RFC 8785 canonical form (a number out of the double range, NaN), so a repeat of the"
                    + " step could not be told from another call");
        }
        String digest = argumentDigest.get();
        // With the tool's class in this node's cache, the first call's STARTED is written with the
        // record's look-up in one statement: a step without a record (the common case) goes
        // straight to its call; one with a record is decided from it below, as after a look-up.
        ToolClass cached = classification.cached(effect.tool()).filter(known -> startsWithoutLookUp(effect, known))
                .orElse(null);
        boolean firstStarted = false;
        Optional<EffectRecord> recorded;
        if (cached != null) {
            RepeatClass cachedClass = cached.repeatClass();
            String key = cachedClass == RepeatClass.KEYED ? effect.idempotencyKey() : null;
            Map<String, Object> arguments = arguments(effect, cachedClass);
            // one round trip with what the run held (its first checkpoint), as one statement each
            var written = withHeldStatement(effect, rowLocked -> records.startingFirst(effect, cachedClass, key,
                    arguments, digest, rowLocked));
            if (written.isEmpty()) {
                return leaseLost(effect, "the writes its run held, with its STARTED record");
            }
            var first = written.get();
            firstStarted = first.started();
            // started: the record is the one just written; neither started nor found: the fence
            // refused it, or a record was committed meanwhile, and the look-up decides as before
            recorded = firstStarted ? Optional.empty() : first.recorded().isPresent() ? first.recorded()
                    : records.find(effect.operationId(), effect.stepKey());
        } else {
            recorded = records.find(effect.operationId(), effect.stepKey());
        }
        EffectRecord.ReplayGuard guard = recorded.map(EffectRecord::replayGuard).orElse(null);
        if (guard != null && !guard.acknowledged()) {
            // replay mode: the dry run found this step BLOCKED and no one took responsibility for it
            if (!records.passGuard(effect)) {
                return leaseLost(effect, "the pass of its replay guard");
            }
            return needsReview(effect, "the replay stops before step " + effect.stepKey() + " of " + effect.tool()
                    + " (" + recorded.get().repeatClass() + ", recorded " + recorded.get().status()
                    + (recorded.get().givenUp() ? ", given up by a person" : "") + "): its dry run found it BLOCKED,"
                    + " a call could repeat an effect that may have landed, and no one acknowledged it");
        }
        if (guard != null) {
            return acknowledged(effect, digest, guard, looked);
        }
        if (recorded.isPresent() && recorded.get().givenUp()) {
            return new EffectOutcome.GivenUp(String.valueOf(recorded.get().error()));
        }
        boolean otherArguments = recorded.isPresent() && !recorded.get().madeWith(digest);
        if (recorded.isPresent() && recorded.get().succeeded() && !otherArguments) {
            return new EffectOutcome.Done(recorded.get().result() == null ? Map.of() : recorded.get().result(), true);
        }
        ToolClient client = tools.get();
        // the class STARTED was written with, when it was: the call is made as that record says
        ToolClass toolClass = firstStarted ? cached : classification.classOf(effect.tool(), () -> client.hints(effect.tool()));
        RepeatClass repeatClass = toolClass.repeatClass();
        looked.repeatClass = repeatClass;
        // a new effect replaces the record only where a call with other arguments cannot add a
        // second effect to the recorded one: the tool's own refusal left none, an idempotent
        // tool's call stands for the state it sets, and a read has no effect
        boolean supersedes = otherArguments && (recorded.get().failed() || repeatClass == RepeatClass.IDEMPOTENT
                || repeatClass == RepeatClass.READ);
        if (otherArguments && !supersedes) {
            return needsReview(effect, otherArgumentsReason(effect, repeatClass, recorded.get(), digest));
        }
        boolean outcomeUnknown = recorded.isPresent() && recorded.get().started() && !supersedes;
        if (outcomeUnknown && recorded.get().taskId() != null) {
            // the last call was answered with a task: its outcome is the task's, never a second call's
            EffectRecord withTask = recorded.get();
            log.info("step {} of {}: following downstream task {} stored by an earlier run", effect.stepKey(),
                    effect.tool(), withTask.taskId());
            TaskEnd end = follow(effect, repeatClass, client, withTask.taskId(), new TaskState.Working(
                    Objects.requireNonNullElse(withTask.taskStatus(), "working"), null, null),
                    withTask.taskPollIntervalMs() == null ? null : Duration.ofMillis(withTask.taskPollIntervalMs()));
            if (end instanceof TaskEnd.Ended ended) {
                return ended.outcome();
            }
            log.warn("step {} of {}: {}; its outcome is unknown", effect.stepKey(), effect.tool(),
                    ((TaskEnd.Unknown) end).reason());
            if (repeatClass == RepeatClass.NEVER_REPEAT) {
                return needsReview(effect, "the downstream task of never-repeat tool " + effect.tool() + " for step "
                        + effect.stepKey() + ": " + ((TaskEnd.Unknown) end).reason() + "; calling again could do it twice");
            }
        }
        if (outcomeUnknown && repeatClass == RepeatClass.NEVER_REPEAT) {
            return needsReview(effect, "a call of never-repeat tool " + effect.tool() + " for step " + effect.stepKey()
                    + " may have run: its outcome is unknown, and calling again could do it twice");
        }
        // the check the registry declares for the tool; a step's own check (older callers) wins
        EffectCheck check = effect.check() != null ? effect.check()
                : toolClass.check() != null && toolClass.check().derivable() ? RegistryCheck.of(toolClass.check(), effect, client)
                : null;
        if (repeatClass == RepeatClass.CHECK_THEN_WRITE && check == null) {
            throw new IllegalArgumentException(effect.tool() + " is check-then-write, but the registry names no check "
                    + "(check-tool and check-landed-field) and step " + effect.stepKey() + " gives none");
        }
        Map<String, Object> arguments = arguments(effect, repeatClass);
        String key = repeatClass == RepeatClass.KEYED ? effect.idempotencyKey() : null;
        boolean checkFirst = outcomeUnknown || (recorded.isPresent() && !supersedes);
        // the tool's retry policy, from the registry next to its class; the node's defaults fill the gaps
        int maxCalls = toolClass.retry().maxCallsOr(properties.maxCalls());
        Duration backoff = toolClass.retry().backoffOr(properties.backoff());
        long unreachableSince = 0; // when the server first refused a connection in this run: the wait's bound
        for (int call = 1; call <= maxCalls; call++) {
            if (repeatClass == RepeatClass.CHECK_THEN_WRITE && checkFirst) {
                Optional<EffectOutcome> landed = landed(effect, check);
                if (landed.isPresent()) {
                    return landed.get();
                }
            }
            if (firstStarted) {
                firstStarted = false; // the first call's STARTED is written (startFirst); a retry writes its own
            } else {
                boolean superseding = supersedes;
                Optional<Boolean> written = withHeld(effect,
                        () -> records.start(effect, repeatClass, key, arguments, digest, superseding));
                if (written.isEmpty()) {
                    return leaseLost(effect, "the writes its run held, with its STARTED record before call " + call);
                }
                if (!written.get()) {
                    return records.cancelPending(effect.fence())
                        ? new EffectOutcome.CancelRequested("a cancel was requested before step " + effect.stepKey()
                                + " of " + effect.tool().tool() + " started: it was not called")
                            : leaseLost(effect, "its STARTED record before call " + call);
                }
            }
            supersedes = false; // from the first STARTED on, the record is this effect's
            crash.at(Point.BEFORE_EFFECT_CALL, effect.stepKey());
            ToolAnswer answer;
            try {
                answer = client.callAllowingTask(effect.tool(), arguments, toolClass.retry().callTimeout());
            } catch (ToolUnreachableException e) {
                // nothing reached the server: no call happened, so neither a call of the policy used
                // up nor an unknown outcome (a never-repeat tool may be called once it answers)
                log.warn("step {} of {}: the server cannot be reached, nothing was sent; waiting for it ({})",
                        effect.stepKey(), effect.tool(), e.getMessage());
                if (unreachableSince == 0) {
                    unreachableSince = System.nanoTime();
                }
                Optional<Duration> unreachable = awaitReachable(effect, client, unreachableSince);
                if (unreachable.isPresent()) {
                    return needsReview(effect, "the server of " + effect.tool() + " for step " + effect.stepKey()
                            + " could not be reached for " + unreachable.get().toSeconds() + " s (nothing was sent: "
                            + e.getMessage() + ")");
                }
                call--;
                continue;
            } catch (ToolTransportException e) {
                log.warn("call {} of {} for step {}: outcome unknown ({})", call, effect.tool(), effect.stepKey(),
                        e.getMessage());
                if (repeatClass == RepeatClass.NEVER_REPEAT) {
                    return needsReview(effect, "the call of never-repeat tool " + effect.tool() + " for step "
                            + effect.stepKey() + " got no answer (" + e.getMessage() + "): it may have run");
                }
                checkFirst = true;
                backOff(call, maxCalls, backoff);
                continue;
            }
            crash.at(Point.AFTER_TOOL_COMMIT, effect.stepKey());
            if (answer instanceof ToolAnswer.TaskStarted started) {
                DownstreamTask task = started.task();
                if (!records.storeTask(effect, task.taskId(), status(task.state()), message(task.state()),
                        task.pollInterval())) {
                    return leaseLost(effect, "its task handle after call " + call);
                }
                TaskEnd end = follow(effect, repeatClass, client, task.taskId(), task.state(), task.pollInterval());
                if (end instanceof TaskEnd.Ended ended) {
                    return ended.outcome();
                }
                String reason = ((TaskEnd.Unknown) end).reason();
                log.warn("call {} of {} for step {}: {}; its outcome is unknown", call, effect.tool(), effect.stepKey(),
                        reason);
                if (repeatClass == RepeatClass.NEVER_REPEAT) {
                    return needsReview(effect, "the downstream task of never-repeat tool " + effect.tool()
                            + " for step " + effect.stepKey() + ": " + reason + "; calling again could do it twice");
                }
                checkFirst = true;
                backOff(call, maxCalls, backoff);
                continue;
            }
            ToolReply reply = ((ToolAnswer.Replied) answer).reply();
            if (reply.error()) {
                if (!records.fail(effect, reply.text())) {
                    return leaseLost(effect, "its FAILED record after call " + call);
                }
                return new EffectOutcome.Refused(reply.text());
            }
            if (holdSuccess(effect, reply.content())) {
                // committed with the step's checkpoint, before the next step runs
                return new EffectOutcome.Done(reply.content(), false);
            }
            if (!records.succeed(effect, reply.content())) {
                return leaseLost(effect, "its SUCCEEDED record after call " + call);
            }
            crash.at(Point.AFTER_EFFECT_RECORD, effect.stepKey());
            return new EffectOutcome.Done(reply.content(), false);
        }
        return needsReview(effect, effect.tool() + " for step " + effect.stepKey() + " got no answer in "
                + maxCalls + " calls: its outcome is unknown");
    }

    /**
     * Replay mode, a step its dry run found BLOCKED that a person acknowledged (they take
     * responsibility for a possible second effect): one new call, the record superseded, the guard
     * passed in the STARTED statement. From there on the record is an ordinary one: a lost answer
     * is an unknown outcome as its class says (a never-repeat tool's parks the operation again).
     */
    private EffectOutcome acknowledged(Effect effect, String digest, EffectRecord.ReplayGuard guard,
            ClassLookedUp looked) {
        ToolClient client = tools.get();
        ToolClass toolClass = classification.classOf(effect.tool(), () -> client.hints(effect.tool()));
        RepeatClass repeatClass = toolClass.repeatClass();
        looked.repeatClass = repeatClass;
        Map<String, Object> arguments = arguments(effect, repeatClass);
        String key = repeatClass == RepeatClass.KEYED ? effect.idempotencyKey() : null;
        if (!records.start(effect, repeatClass, key, arguments, digest, true, true)) {
            return records.cancelPending(effect.fence())
                    ? new EffectOutcome.CancelRequested("a cancel was requested before step " + effect.stepKey()
                            + " of " + effect.tool().tool() + " started: it was not called")
                    : leaseLost(effect, "its STARTED record of the call " + guard.acknowledgedBy() + " acknowledged");
        }
        log.warn("step {} of {}: calling once more for the replay, as {} acknowledged", effect.stepKey(), effect.tool(),
                guard.acknowledgedBy());
        ToolAnswer answer;
        try {
            answer = client.callAllowingTask(effect.tool(), arguments, toolClass.retry().callTimeout());
        } catch (ToolTransportException e) {
            if (repeatClass == RepeatClass.NEVER_REPEAT) {
                return needsReview(effect, "the acknowledged call of never-repeat tool " + effect.tool() + " for step "
                        + effect.stepKey() + " got no answer (" + e.getMessage() + "): it may have run");
            }
            // the record is STARTED now: the ordinary rules of the class take it from here
            return performFor(effect, looked);
        }
        if (answer instanceof ToolAnswer.TaskStarted started) {
            DownstreamTask task = started.task();
            if (!records.storeTask(effect, task.taskId(), status(task.state()), message(task.state()),
                    task.pollInterval())) {
                return leaseLost(effect, "its task handle after the acknowledged call");
            }
            TaskEnd end = follow(effect, repeatClass, client, task.taskId(), task.state(), task.pollInterval());
            return end instanceof TaskEnd.Ended ended ? ended.outcome()
                    : needsReview(effect, "the acknowledged call of " + effect.tool() + " for step " + effect.stepKey()
                            + ": " + ((TaskEnd.Unknown) end).reason());
        }
        ToolReply reply = ((ToolAnswer.Replied) answer).reply();
        if (reply.error()) {
            return records.fail(effect, reply.text()) ? new EffectOutcome.Refused(reply.text())
                    : leaseLost(effect, "its FAILED record after the acknowledged call");
        }
        if (!records.succeed(effect, reply.content())) {
            return leaseLost(effect, "its SUCCEEDED record after the acknowledged call");
        }
        return new EffectOutcome.Done(reply.content(), false);
    }

    /**
     * Asks the downstream server to cancel the task a step's call is waiting for ({@code
     * tasks/cancel}, cooperative: the task may still complete, and the run following it records
     * whatever it ends with). For the operation's cancel, which will call it for the step in flight.
     */
    public DownstreamCancel cancelDownstreamTask(OperationId operationId, String stepKey) {
        Optional<EffectRecords.StoredTask> task = records.taskOf(operationId, stepKey);
        if (task.isEmpty()) {
            return new DownstreamCancel.NoTask();
        }
        return sendCancel(tools.get(), operationId, stepKey, task.get().tool(), task.get().taskId());
    }

    private static DownstreamCancel sendCancel(ToolClient client, OperationId operationId, String stepKey, ToolRef tool,
            String taskId) {
        try {
            TaskCancellation answer = client.cancelTask(tool, taskId);
            log.info("operation {} step {}: tasks/cancel of {} at {}: {}", operationId, stepKey, taskId, tool, answer);
            return new DownstreamCancel.Requested(tool, taskId, answer);
        } catch (ToolTransportException e) {
            log.warn("operation {} step {}: tasks/cancel of {} at {} got no answer ({}); polling on", operationId,
                    stepKey, taskId, tool, e.getMessage());
            return new DownstreamCancel.Unreachable(tool, taskId, e.getMessage());
        }
    }

    /** How following a downstream task ended: with the effect's outcome, or with its outcome unknown. */
    private sealed interface TaskEnd {
        record Ended(EffectOutcome outcome) implements TaskEnd {
        }

        record Unknown(String reason) implements TaskEnd {
        }
    }

    /**
     * Polls the downstream task until it is terminal, waiting between polls as long as its server
     * asks ({@code pollIntervalMs}; the node's {@code task-poll-interval} when it says nothing),
     * and records what each poll found (fenced: a lost lease stops following, and the new holder
     * polls the same handle). A cancel of the operation, which that record notices, is passed on
     * once: {@code tasks/cancel} for the handle, and the task is followed to its end. Completed:
     * the reply is the outcome, as a call's would be (after a cancel, the operation's cancel finds
     * the effect committed anyway); cancelled after this node asked for it: the call ended without
     * its effect, the tool's own answer, and the run stops for the cancel (FAILED record,
     * {@code CancelRequested}), except for a never-repeat tool, where a person looks; cancelled
     * by someone else: a person looks (whether part of the work happened is not known); failed (a JSON-RPC error during the work) or not found: the outcome is unknown, for
     * the repeat class to decide, like a lost answer.
     */
    private TaskEnd follow(Effect effect, RepeatClass repeatClass, ToolClient client, String taskId, TaskState first,
            @Nullable Duration suggested) {
        Instant deadline = Instant.now().plus(properties.taskTimeout());
        Duration interval = suggested != null ? suggested : properties.taskPollInterval();
        TaskState state = first;
        while (true) {
            switch (state) {
                case TaskState.Completed completed -> {
                    ToolReply reply = completed.reply();
                    if (reply.error()) {
                        return new TaskEnd.Ended(records.fail(effect, reply.text()) ? new EffectOutcome.Refused(reply.text())
                                : leaseLost(effect, "its FAILED record after task " + taskId));
                    }
                    if (!records.succeed(effect, reply.content())) {
                        return new TaskEnd.Ended(leaseLost(effect, "its SUCCEEDED record after task " + taskId));
                    }
                    crash.at(Point.AFTER_EFFECT_RECORD, effect.stepKey());
                    return new TaskEnd.Ended(new EffectOutcome.Done(reply.content(), false));
                }
                case TaskState.Cancelled cancelled -> {
                    records.taskPolled(effect, "cancelled", cancelled.message(), null);
                    Optional<Instant> asked = records.downstreamCancelSent(effect.operationId(), effect.stepKey());
                    if (asked.isPresent()) {
                        return new TaskEnd.Ended(cancelledAtOurRequest(effect, repeatClass, taskId, cancelled, asked.get()));
                    }
                    return new TaskEnd.Ended(needsReview(effect, "the downstream task " + taskId + " of "
                            + effect.tool() + " for step " + effect.stepKey() + " was cancelled"
                            + (cancelled.message() == null ? "" : " (" + cancelled.message() + ")")
                            + ": whether part of its work happened is not known"));
                }
                case TaskState.Failed failed -> {
                    records.taskPolled(effect, "failed", failed.message(), null);
                    return new TaskEnd.Unknown("its downstream task " + taskId + " failed with JSON-RPC error "
                            + failed.code() + " " + failed.message());
                }
                case TaskState.NotFound notFound -> {
                    return new TaskEnd.Unknown("its downstream task " + taskId + " is not known to the server ("
                            + notFound.message() + ")");
                }
                case TaskState.Working working -> {
                    if (working.pollInterval() != null) {
                        interval = working.pollInterval();
                    }
                }
            }
            if (Instant.now().plus(interval).isAfter(deadline)) {
                return new TaskEnd.Ended(needsReview(effect, "the downstream task " + taskId + " of " + effect.tool()
                        + " for step " + effect.stepKey() + " is still " + status(state) + " after "
                        + properties.taskTimeout() + "; its handle is kept: sending the operation back to the workers"
                        + " polls it again"));
            }
            try {
                Thread.sleep(interval.compareTo(MIN_POLL_INTERVAL) < 0 ? MIN_POLL_INTERVAL : interval);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                // the node is stopping: the handle stays, and whoever leases the operation next polls it
                return new TaskEnd.Ended(new EffectOutcome.LeaseLost("step " + effect.stepKey() + " of "
                        + effect.tool().tool() + ": interrupted while following downstream task " + taskId));
            }
            try {
                state = client.task(effect.tool(), taskId);
            } catch (ToolTransportException e) {
                log.warn("step {}: tasks/get {} of {} failed ({}); polling again", effect.stepKey(), taskId,
                        effect.tool(), e.getMessage());
                continue;
            }
            if (state instanceof TaskState.Working working) {
                switch (records.taskPolled(effect, working.status(), working.message(), working.pollInterval())) {
                    case LEASE_LOST -> {
                        return new TaskEnd.Ended(leaseLost(effect, "its record of a poll of task " + taskId));
                    }
                    case CANCEL_PENDING -> {
                        // recorded before it is sent: whoever polls next, here or on another node, sends none
                        if (records.downstreamCancelSending(effect)) {
                            sendCancel(client, effect.operationId(), effect.stepKey(), effect.tool(), taskId);
                        }
                    }
                    case RECORDED -> {
                    }
                }
            }
        }
    }

    /**
     * The downstream task ended cancelled after this node sent {@code tasks/cancel} for the
     * operation's cancel: the server says the work stopped before it was done, which for a tool
     * that may be repeated is its answer that the call had no effect (recorded FAILED, and the
     * run stops for the cancel: STOPPED). A never-repeat tool's partial work could not be repaired
     * by a repeat, so a person looks, as for any unknown outcome (NEEDS_REVIEW).
     */
    private EffectOutcome cancelledAtOurRequest(Effect effect, RepeatClass repeatClass, String taskId,
            TaskState.Cancelled cancelled, Instant asked) {
        String what = "the downstream task " + taskId + " of " + effect.tool() + " for step " + effect.stepKey()
                + " was cancelled" + (cancelled.message() == null ? "" : " (" + cancelled.message() + ")")
                + " after the operation's cancel sent tasks/cancel at " + asked;
        if (repeatClass == RepeatClass.NEVER_REPEAT) {
            return needsReview(effect, what + ": whether part of the work of never-repeat tool " + effect.tool()
                    + " happened is not known");
        }
        if (!records.fail(effect, what)) {
            return leaseLost(effect, "its FAILED record after task " + taskId + " was cancelled");
        }
        return new EffectOutcome.CancelRequested(what + ": it ended without its effect");
    }

    private static String status(TaskState state) {
        return switch (state) {
            case TaskState.Working working -> working.status();
            case TaskState.Completed completed -> "completed";
            case TaskState.Failed failed -> "failed";
            case TaskState.Cancelled cancelled -> "cancelled";
            case TaskState.NotFound notFound -> "not found";
        };
    }

    private static @Nullable String message(TaskState state) {
        return state instanceof TaskState.Working working ? working.message() : null;
    }

    private Optional<EffectOutcome> landed(Effect effect, EffectCheck check) {
        try {
            Optional<Map<String, Object>> landed = check.landed();
            if (landed.isPresent()) {
                if (!records.succeed(effect, landed.get())) {
                    return Optional.of(leaseLost(effect, "its SUCCEEDED record after the check"));
                }
                return Optional.of(new EffectOutcome.Done(landed.get(), true));
            }
            return Optional.empty();
        } catch (ToolTransportException e) {
            return Optional.of(needsReview(effect, "cannot check whether step " + effect.stepKey() + " of "
                    + effect.tool() + " landed (" + e.getMessage() + ")"));
        }
    }

    /**
     * Why a step asked again with other arguments than its record's cannot simply be called:
     * the step's key (and so a keyed tool's idempotency key, and the check of a check-then-write
     * tool) stands for the recorded call, which may have had its effect.
     */
    private static String otherArgumentsReason(Effect effect, RepeatClass repeatClass, EffectRecord recorded,
            String digest) {
        String why = switch (repeatClass) {
            case KEYED -> "its idempotency key " + effect.idempotencyKey() + " stands for the recorded request, so "
                    + "the tool would answer that request or refuse the key's reuse instead of making this one";
            case CHECK_THEN_WRITE -> "its check tells whether the recorded arguments' effect landed, not this one's, "
                    + "and writing as well could leave both effects";
            case NEVER_REPEAT -> "a second call could add its effect to the recorded call's";
            case IDEMPOTENT, READ -> throw new IllegalStateException("an idempotent tool or a read is called again");
        };
        return "step " + effect.stepKey() + " of " + effect.tool() + " (" + repeatClass + ") was recorded "
                + recorded.status() + " with arguments "
                + (recorded.argumentDigest() == null ? "of unknown digest" : "sha256:" + recorded.argumentDigest())
                + " and is asked again with other arguments, sha256:" + digest + ": " + why
                + "; a loop gives each call its own ordinal (StepKey.nth)";
    }

    /** Said once, by the worker that ends the run; the gateway only names what was refused. */
    private static EffectOutcome leaseLost(Effect effect, String record) {
        return new EffectOutcome.LeaseLost("step " + effect.stepKey() + " of " + effect.tool().tool() + ": " + record
                + " was refused in lease " + effect.fence());
    }

    /**
     * A STARTED write, with what the worker's run held for its next transaction (the checkpoint
     * before the step, a success before it) in the same one; empty when a held write was refused
     * by the lease's fence (nothing written: the tool must not be called).
     */
    private <T> Optional<T> withHeld(Effect effect, Supplier<T> write) {
        if (held == null) {
            return Optional.of(write.get());
        }
        return unlessRefused(held.together(effect.operationId(), write));
    }

    /** As {@link #withHeld}, for a write that is one statement: sent with the held ones in one round trip when they are too. */
    private <T> Optional<T> withHeldStatement(Effect effect, Function<Boolean, SqlStatement<T>> write) {
        if (held == null) {
            return Optional.of(records.alone(write.apply(false)));
        }
        return unlessRefused(held.together(effect.operationId(), write));
    }

    private static <T> Optional<T> unlessRefused(RunWrites.Together<T> together) {
        return together.held() == RunWrites.Held.REFUSED ? Optional.empty() : Optional.of(together.result());
    }

    /**
     * Inside a worker's run, SUCCEEDED (and its event) is held for the transaction of the step's
     * checkpoint ({@link RunWrites}): one commit for both. A crash before that commit leaves
     * STARTED, an unknown outcome, exactly as a crash between the call and a SUCCEEDED of its own
     * would; the crash point after the record is where it commits. False: not in such a run.
     */
    private boolean holdSuccess(Effect effect, Map<String, Object> result) {
        return held != null && held.hold(effect.operationId(), new RunWrites.Write() {
            @Override
            public boolean write() {
                return records.succeed(effect, result);
            }

            @Override
            public SqlStatement<Boolean> statement(boolean rowLocked) {
                return records.succeeding(effect, result);
            }

            @Override
            public void committed() {
                crash.at(Point.AFTER_EFFECT_RECORD, effect.stepKey());
            }
        });
    }

    /**
     * Whether a first call can be started before the record is read: not for a check-then-write
     * tool without a check (the call below refuses it, and no STARTED may be left behind).
     */
    private static boolean startsWithoutLookUp(Effect effect, ToolClass toolClass) {
        return toolClass.repeatClass() != RepeatClass.CHECK_THEN_WRITE || effect.check() != null
                || (toolClass.check() != null && toolClass.check().derivable());
    }

    private static Map<String, Object> arguments(Effect effect, RepeatClass repeatClass) {
        Map<String, Object> arguments = new LinkedHashMap<>(effect.arguments());
        arguments.put("operationId", effect.operationId().toString());
        arguments.put("stepKey", effect.stepKey());
        if (repeatClass == RepeatClass.KEYED) {
            arguments.put("idempotencyKey", effect.idempotencyKey());
        }
        return arguments;
    }

    private EffectOutcome needsReview(Effect effect, String reason) {
        log.warn("operation {} needs review: {}", effect.operationId(), reason);
        return new EffectOutcome.NeedsReview(reason);
    }

    /**
     * Waits, listing the server's tools once a second (a read: nothing is called), until it
     * answers — empty then — or {@code opledger.effects.unreachable-wait} has passed since
     * {@code started} (the first refusal of this run: a flapping server is not waited for forever):
     * then how long it was waited for. The lease's heartbeat goes on meanwhile; a cancel is seen at the next call.
     */
    private Optional<Duration> awaitReachable(Effect effect, ToolClient client, long started) {
        Duration waited = Duration.ofNanos(System.nanoTime() - started);
        while (waited.compareTo(properties.unreachableWait()) < 0) {
            try {
                Thread.sleep(UNREACHABLE_POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of(Duration.ofNanos(System.nanoTime() - started));
            }
            try {
                client.list(effect.tool().server());
                log.info("step {} of {}: the server answers again after {} ms", effect.stepKey(), effect.tool(),
                        Duration.ofNanos(System.nanoTime() - started).toMillis());
                return Optional.empty();
            } catch (ToolTransportException stillUnreachable) {
                waited = Duration.ofNanos(System.nanoTime() - started);
            }
        }
        return Optional.of(waited);
    }

    private static void backOff(int call, int maxCalls, Duration backoff) {
        if (call < maxCalls) {
            try {
                Thread.sleep(backoff.multipliedBy(1L << (call - 1)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

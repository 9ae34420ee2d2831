package dev.opledger.effect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.classification.ClassificationService;
import dev.opledger.classification.RepeatClass;
import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.CancelResolution;
import dev.opledger.claim.CancelService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.internal.CrashPoint;
import dev.opledger.effect.internal.EffectRecords;
import dev.opledger.mcp.DownstreamTask;
import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolAnswer;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * A call answered with a task (MCP tasks extension): the gateway commits the task's handle to the
 * effect record before the first {@code tasks/get}, polls no faster than the server asks, records
 * the task's end as the effect's outcome, and a run that finds a stored handle polls it without
 * calling the tool again. Over a scripted tool server, on real PostgreSQL; the real MCP path
 * (reference-tools' wrap_gift, a node killed while it runs) is e2e-tests' DownstreamTaskTakeoverIT.
 */
@NodeIntegrationTest
// the same classes as EffectGatewayIT and EffectArgumentsIT, so all run in one context
@TestPropertySource(properties = {
    "opledger.tools.classes.shop.reserve_inventory.repeat-class=keyed",
    "opledger.tools.classes.shop.adjust_points.repeat-class=check_then_write",
    "opledger.tools.classes.shop.adjust_points.check-tool=get_points"})
class DownstreamTaskIT {

    /** A keyed tool (configured above) standing for wrap_gift. */
    private static final ToolRef KEYED = new ToolRef("shop", "reserve_inventory");
    /** Never-repeat by its hints. */
    private static final ToolRef NEVER_REPEAT = new ToolRef("shop", "send_message");
    private static final Duration POLL_INTERVAL = Duration.ofMillis(300);

    @Autowired
    EffectRecords records;

    @Autowired
    ClassificationService classification;

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    CancelService cancels;

    @Autowired
    CrashPoint noCrash;

    @Autowired
    JdbcTemplate jdbc;

    long ref;
    SubjectId subject;
    OperationId operationId;
    Fence fence;

    @BeforeEach
    void claimAndLease() {
        subject = new SubjectId("downstream-task-" + UUID.randomUUID());
        operationId = Operations.claim(claims, subject, 1).getFirst();
        ref = jdbc.queryForObject("SELECT id FROM operation WHERE subject_id = ? AND operation_id = ?", Long.class,
                subject.value(), operationId.value());
        fence = Operations.lease(lifecycle, "tasks-node", operationId).fence();
    }

    @Test
    void theHandleIsCommittedBeforeTheFirstPollAndPollsWaitAsLongAsTheServerAsks() {
        var server = new TaskServer(poll -> switch (poll) {
            case 1 -> new TaskState.Working("working", "wrapping", Duration.ofMillis(500));
            case 2 -> new TaskState.Working("working", "still wrapping", null);
            default -> new TaskState.Completed(new ToolReply(false, Map.of("wrapId", "w-1"), "Wrapped"));
        });

        var outcome = gateway(server).perform(effect(KEYED, "wrap"));

        assertThat(outcome).isEqualTo(new EffectOutcome.Done(Map.of("wrapId", "w-1"), false));
        assertThat(server.calls).as("tools/call sent").hasSize(1);
        assertThat(server.recordAtFirstPoll).as("the effect record when tasks/get was first sent")
                .containsEntry("status", "STARTED").containsEntry("task_id", server.taskId);
        assertThat(server.polls).hasSize(3);
        // the CreateTaskResult asked for 300 ms, the first poll's answer for 500 ms, the second for nothing new
        assertThat(Duration.between(server.calledAt, server.polls.get(0))).isGreaterThanOrEqualTo(POLL_INTERVAL);
        assertThat(Duration.between(server.polls.get(0), server.polls.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        assertThat(Duration.between(server.polls.get(1), server.polls.get(2))).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        assertThat(record("wrap")).containsEntry("status", "SUCCEEDED").containsEntry("task_id", server.taskId)
                .containsEntry("task_polls", 2).containsEntry("task_poll_interval_ms", 500L)
                .containsEntry("task_status_message", "still wrapping");
    }

    @Test
    void aRunThatFindsAStoredHandlePollsItAndNeverCallsTheToolAgain() {
        // what a node that died while the task ran leaves behind: STARTED, with the task's handle
        assertThat(records.start(effect(KEYED, "wrap"), RepeatClass.KEYED, operationId + ":wrap", Map.of())).isTrue();
        assertThat(records.storeTask(effect(KEYED, "wrap"), "task-of-the-dead-node", "working", null,
                Duration.ofMillis(100))).isTrue();
        var server = new TaskServer(poll -> poll < 2 ? new TaskState.Working("working", null, null)
                : new TaskState.Completed(new ToolReply(false, Map.of("wrapId", "w-2"), "Wrapped")));

        var outcome = gateway(server).perform(effect(KEYED, "wrap"));

        assertThat(outcome).isEqualTo(new EffectOutcome.Done(Map.of("wrapId", "w-2"), false));
        assertThat(server.calls).as("tools/call sent by the resumed run").isEmpty();
        assertThat(server.polledTasks).containsOnly("task-of-the-dead-node").hasSize(2);
        assertThat(record("wrap")).containsEntry("status", "SUCCEEDED").containsEntry("calls", 1);
    }

    @Test
    void aFailedTaskOfAKeyedToolIsAnUnknownOutcomeAndTheToolIsCalledAgainWithTheSameKey() {
        var server = new TaskServer(poll -> poll == 1 ? new TaskState.Failed(-32603, "wrapping machine jammed")
                : new TaskState.Completed(new ToolReply(false, Map.of("wrapId", "w-3"), "Wrapped")));

        var outcome = gateway(server).perform(effect(KEYED, "wrap"));

        assertThat(outcome).isEqualTo(new EffectOutcome.Done(Map.of("wrapId", "w-3"), false));
        assertThat(server.calls).hasSize(2).allSatisfy(arguments ->
                assertThat(arguments).containsEntry("idempotencyKey", operationId + ":wrap"));
        assertThat(record("wrap")).containsEntry("status", "SUCCEEDED").containsEntry("calls", 2);
    }

    @Test
    void aFailedTaskOfANeverRepeatToolNeedsReviewAndIsNotCalledAgain() {
        var server = new TaskServer(poll -> new TaskState.Failed(-32603, "mail relay gone"));
        server.hints = new ToolHints(false, false, false, true);

        var outcome = gateway(server).perform(effect(NEVER_REPEAT, "receipt"));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class, review -> assertThat(review.reason())
                .contains("never-repeat", "send_message", "failed with JSON-RPC error -32603 mail relay gone"));
        assertThat(server.calls).hasSize(1);
        assertThat(record("receipt")).containsEntry("status", "STARTED").containsEntry("task_status", "failed");
    }

    @Test
    void aCancelledTaskNeedsReviewWhateverTheClass() {
        var server = new TaskServer(poll -> new TaskState.Cancelled("cancelled by the client"));

        var outcome = gateway(server).perform(effect(KEYED, "wrap"));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class, review ->
                assertThat(review.reason()).contains("was cancelled (cancelled by the client)"));
        assertThat(server.calls).hasSize(1);
        assertThat(record("wrap")).containsEntry("status", "STARTED").containsEntry("task_status", "cancelled");
    }

    @Test
    void aTaskStillWorkingAtTheTimeoutNeedsReviewAndKeepsItsHandle() {
        var server = new TaskServer(poll -> new TaskState.Working("working", null, null));
        var gateway = new EffectGateway(records, classification, () -> server,
                new EffectProperties(3, Duration.ofMillis(1), Duration.ofMillis(100), Duration.ofMillis(700)), noCrash);

        var outcome = gateway.perform(effect(KEYED, "wrap"));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class, review ->
                assertThat(review.reason()).contains("is still working after", "its handle is kept"));
        assertThat(server.calls).hasSize(1);
        assertThat(record("wrap")).containsEntry("status", "STARTED").containsEntry("task_id", server.taskId);
    }

    @Test
    void theStoredHandleCanBeCancelledDownstream() {
        var server = new TaskServer(poll -> new TaskState.Working("working", null, null));
        var gateway = gateway(server);
        assertThat(gateway.cancelDownstreamTask(operationId, "wrap")).isEqualTo(new DownstreamCancel.NoTask());
        assertThat(records.start(effect(KEYED, "wrap"), RepeatClass.KEYED, operationId + ":wrap", Map.of())).isTrue();
        assertThat(records.storeTask(effect(KEYED, "wrap"), "task-to-cancel", "working", null, null)).isTrue();

        var cancel = gateway.cancelDownstreamTask(operationId, "wrap");

        assertThat(cancel).isEqualTo(new DownstreamCancel.Requested(KEYED, "task-to-cancel", TaskCancellation.ACKNOWLEDGED));
        assertThat(server.cancelled).containsExactly("task-to-cancel");
    }

    @Test
    void aCancelWhileATaskRunsSendsOneTasksCancelAndTheCancelledTaskStopsTheOperation() {
        var server = new TaskServer(poll -> {
            assertThat(cancels.cancelOwn(subject, operationId, CancelChannel.REST))
                    .isInstanceOf(CancelOutcome.Pending.class);
            return new TaskState.Working("working", null, Duration.ofMillis(100));
        });
        // the task works on through two more polls after tasks/cancel, then ends cancelled
        server.afterCancel = polls -> {
            if (polls == 0) {
                // a repeat of the operation's cancel while the task still works
                assertThat(cancels.cancelOwn(subject, operationId, CancelChannel.MCP))
                        .isInstanceOf(CancelOutcome.Pending.class);
            }
            return polls < 2 ? new TaskState.Working("working", "unwinding", null)
                    : new TaskState.Cancelled("cancelled at the client's request");
        };

        var outcome = gateway(server).perform(effect(KEYED, "wrap"));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.CancelRequested.class, cancel -> assertThat(
                cancel.detail()).contains("was cancelled", "after the operation's cancel sent tasks/cancel"));
        assertThat(server.cancelled).as("tasks/cancel sent").containsExactly(server.taskId);
        assertThat(server.polls).as("polled until the task ended").hasSize(4);
        assertThat(record("wrap")).containsEntry("status", "FAILED").containsEntry("task_status", "cancelled");
        assertThat(cancelSentAt("wrap")).isNotNull();
        assertThat(lifecycle.finishRun(fence, "tasks-node", OperationStatus.CANCELLED, "cancelled")).isTrue();
        assertThat(lifecycle.cancel(operationId)).get().extracting(CancelRecord::resolution)
                .isEqualTo(CancelResolution.STOPPED);
    }

    @Test
    void aTaskThatCompletesAfterItsCancelIsTheEffectCommittedAnyway() {
        var server = new TaskServer(poll -> {
            if (poll == 1) {
                cancels.cancelOwn(subject, operationId, CancelChannel.REST);
            }
            return new TaskState.Working("working", null, Duration.ofMillis(100));
        });
        server.afterCancel = polls -> polls < 1 ? new TaskState.Working("working", "too late to stop", null)
                : new TaskState.Completed(new ToolReply(false, Map.of("wrapId", "w-late"), "Wrapped"));

        var outcome = gateway(server).perform(effect(KEYED, "wrap"));

        assertThat(outcome).isEqualTo(new EffectOutcome.Done(Map.of("wrapId", "w-late"), false));
        assertThat(server.cancelled).containsExactly(server.taskId);
        assertThat(record("wrap")).containsEntry("status", "SUCCEEDED");
        // the run goes on to its next step boundary, which refuses the next STARTED; it ends there
        assertThat(lifecycle.finishRun(fence, "tasks-node", OperationStatus.CANCELLED, "cancelled")).isTrue();
        assertThat(lifecycle.cancel(operationId)).get().satisfies(cancel -> {
            assertThat(cancel.resolution()).isEqualTo(CancelResolution.EFFECT_COMMITTED_ANYWAY);
            assertThat(cancel.step()).isEqualTo("wrap");
            assertThat(cancel.tool()).isEqualTo(KEYED.tool());
        });
    }

    @Test
    void aCancelledTaskOfANeverRepeatToolAfterTheCancelNeedsReview() {
        var server = new TaskServer(poll -> {
            cancels.cancelOwn(subject, operationId, CancelChannel.REST);
            return new TaskState.Working("working", null, Duration.ofMillis(100));
        });
        server.hints = new ToolHints(false, false, false, true);
        server.afterCancel = polls -> new TaskState.Cancelled(null);

        var outcome = gateway(server).perform(effect(NEVER_REPEAT, "receipt"));

        assertThat(outcome).isInstanceOfSatisfying(EffectOutcome.NeedsReview.class, review -> assertThat(
                review.reason()).contains("after the operation's cancel sent tasks/cancel", "never-repeat"));
        assertThat(server.cancelled).hasSize(1);
        assertThat(record("receipt")).containsEntry("status", "STARTED").containsEntry("task_status", "cancelled");
        assertThat(lifecycle.finishRun(fence, "tasks-node", OperationStatus.NEEDS_REVIEW, "review")).isTrue();
        assertThat(lifecycle.cancel(operationId)).get().satisfies(cancel -> {
            assertThat(cancel.resolution()).isEqualTo(CancelResolution.NEEDS_REVIEW);
            assertThat(cancel.step()).isEqualTo("receipt");
        });
    }

    @Test
    void aRunResumingATaskWhoseCancelWasSentDoesNotSendItAgain() {
        // what a node that sent tasks/cancel and then died leaves behind
        assertThat(records.start(effect(KEYED, "wrap"), RepeatClass.KEYED, operationId + ":wrap", Map.of())).isTrue();
        assertThat(records.storeTask(effect(KEYED, "wrap"), "task-cancelled-by-the-dead-node", "working", null,
                Duration.ofMillis(100))).isTrue();
        cancels.cancelOwn(subject, operationId, CancelChannel.REST);
        assertThat(records.downstreamCancelSending(effect(KEYED, "wrap"))).isTrue();
        assertThat(records.downstreamCancelSending(effect(KEYED, "wrap"))).as("a second sender").isFalse();
        var server = new TaskServer(poll -> poll < 3 ? new TaskState.Working("working", null, null)
                : new TaskState.Cancelled(null));

        var outcome = gateway(server).perform(effect(KEYED, "wrap"));

        assertThat(outcome).isInstanceOf(EffectOutcome.CancelRequested.class);
        assertThat(server.cancelled).as("tasks/cancel sent by the resumed run").isEmpty();
        assertThat(server.polledTasks).containsOnly("task-cancelled-by-the-dead-node");
    }

    private @Nullable Object cancelSentAt(String step) {
        return jdbc.queryForObject("SELECT task_cancel_sent_at FROM effect_record WHERE operation_ref = ? AND step_key = ?",
                Object.class, ref, step);
    }

    private EffectGateway gateway(ToolClient client) {
        return new EffectGateway(records, classification, () -> client,
                new EffectProperties(3, Duration.ofMillis(1), Duration.ofSeconds(1), Duration.ofMinutes(1)), noCrash);
    }

    private Effect effect(ToolRef tool, String step) {
        return new Effect(fence, step, tool, Map.of("sku", "SKU-MUG", "quantity", 1), null);
    }

    private Map<String, Object> record(String step) {
        return jdbc.queryForMap("SELECT status, calls, task_id, task_status, task_status_message, task_polls, "
                + "task_poll_interval_ms FROM effect_record WHERE operation_ref = ? AND step_key = ?", ref, step);
    }

    /**
     * A server whose every tools/call makes a task (asking for {@link #POLL_INTERVAL} between
     * polls) and whose tasks/get answers are scripted by the poll's number (from 1), counted over
     * all its tasks.
     */
    private final class TaskServer implements ToolClient {

        final List<Map<String, Object>> calls = new ArrayList<>();
        final List<Instant> polls = new ArrayList<>();
        final List<String> polledTasks = new ArrayList<>();
        final List<String> cancelled = new ArrayList<>();
        private final IntFunction<TaskState> script;
        /** Once tasks/cancel was sent, answers tasks/get by the number of polls since, instead of the script. */
        @Nullable IntFunction<TaskState> afterCancel;
        private int pollsAfterCancel;
        @Nullable ToolHints hints;
        @Nullable Instant calledAt;
        @Nullable String taskId;
        @Nullable Map<String, Object> recordAtFirstPoll;

        TaskServer(IntFunction<TaskState> script) {
            this.script = script;
        }

        @Override
        public synchronized ToolAnswer callAllowingTask(ToolRef tool, Map<String, Object> arguments,
                @Nullable Duration timeout) {
            calls.add(Map.copyOf(arguments));
            calledAt = Instant.now();
            taskId = "task-" + calls.size() + "-" + UUID.randomUUID();
            return new ToolAnswer.TaskStarted(new DownstreamTask(taskId, new TaskState.Working("working", null,
                    POLL_INTERVAL), POLL_INTERVAL));
        }

        @Override
        public ToolReply call(ToolRef tool, Map<String, Object> arguments) {
            throw new AssertionError("the gateway calls every effect allowing a task");
        }

        @Override
        public synchronized TaskState task(ToolRef tool, String taskId) {
            if (polls.isEmpty()) {
                recordAtFirstPoll = jdbc.queryForMap("SELECT status, task_id FROM effect_record WHERE operation_ref = ?"
                        + " AND task_id IS NOT NULL", ref);
            }
            polls.add(Instant.now());
            polledTasks.add(taskId);
            if (afterCancel != null && !cancelled.isEmpty()) {
                return afterCancel.apply(pollsAfterCancel++);
            }
            return script.apply(polls.size());
        }

        @Override
        public synchronized TaskCancellation cancelTask(ToolRef tool, String taskId) {
            cancelled.add(taskId);
            return TaskCancellation.ACKNOWLEDGED;
        }

        @Override
        public Optional<ToolHints> hints(ToolRef tool) {
            return Optional.ofNullable(hints);
        }
    }
}

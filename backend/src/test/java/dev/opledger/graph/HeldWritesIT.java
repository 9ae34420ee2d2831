package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;

import dev.opledger.claim.ClaimService;
import dev.opledger.classification.ClassificationService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.RunWrites;
import dev.opledger.effect.TestGateways;
import dev.opledger.graph.internal.OperationRuns;
import dev.opledger.graph.internal.OperationWorker;
import dev.opledger.graph.internal.WorkerProperties;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationSpans;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.state.AgentState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Issue 13: inside a worker's run, a call's SUCCEEDED commits with the step's checkpoint, the
 * run's first checkpoint with the first STARTED, and a first call's STARTED looks its record up in
 * the same statement. What must hold: a lease taken over between the answer and the checkpoint
 * leaves neither written (the new holder finds the call's outcome unknown, as after a crash there),
 * and two nodes starting one step at once make one call of a never-repeat tool, not two.
 */
@NodeIntegrationTest
class HeldWritesIT {

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    GraphService graphs;

    @Autowired
    ApplicationContext node;

    @Autowired
    JdbcTemplate jdbc;

    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicReference<Runnable> duringCall = new AtomicReference<>(() -> { });

    /** A never-repeat tool by its annotations (not idempotent), so its class is recorded and cached. */
    private final ToolClient tools = new ToolClient() {
        @Override
        public ToolReply call(ToolRef tool, Map<String, Object> arguments) {
            calls.incrementAndGet();
            duringCall.get().run();
            return new ToolReply(false, Map.of("messageId", "m-" + calls.get()), "ok");
        }

        @Override
        public Optional<ToolHints> hints(ToolRef tool) {
            return Optional.of(new ToolHints(false, false, false, true));
        }
    };

    private final ToolRef send = new ToolRef("held-" + UUID.randomUUID(), "send_message");
    private OperationId operationId;

    @BeforeEach
    void claim() {
        operationId = Operations.claim(claims, new SubjectId("held-" + UUID.randomUUID()), 1).getFirst();
    }

    private LeasedOperation lease(String node) {
        return lifecycle.lease(node, 1000, Duration.ofSeconds(30)).stream()
                .filter(o -> o.operationId().equals(operationId)).findFirst().orElseThrow();
    }

    /** One step, "receipt", that sends through {@code gateway} under the run's lease. */
    private StateGraph<AgentState> graph(EffectGateway gateway, List<EffectOutcome> outcomes) throws GraphStateException {
        return new StateGraph<>(new JsonStateSerializer<>(AgentState::new))
                .addNode("receipt", GraphStep.node((state, config) -> {
                    var outcome = gateway.perform(new Effect(GraphRunner.leaseOf(config).fence(), "receipt", send,
                            Map.of("to", "ann@example.com"), null));
                    outcomes.add(outcome);
                    return outcome instanceof EffectOutcome.Done done ? StepResult.next(Map.of("sent", done.result()))
                            : StepResult.stop(new ExecutionOutcome.NeedsReview(outcome.toString()));
                }))
                .addEdge(START, "receipt").addEdge("receipt", END);
    }

    @Test
    void aRunCommitsTheOutcomeWithTheCheckpointAndTheFirstCheckpointWithStarted() throws Exception {
        EffectGateway gateway = TestGateways.holding(node, tools);
        servedFromTheCache(); // the first STARTED as one statement, sent with the first checkpoint
        LeasedOperation leased = lease("node-a");
        List<EffectOutcome> outcomes = new ArrayList<>();
        duringCall.set(() -> {
            // during the call: STARTED committed with the run's first checkpoint, nothing else of the step
            assertThat(status("receipt")).isEqualTo("STARTED");
            assertThat(checkpoints()).isEqualTo(1);
            assertThat(jdbc.queryForList("""
                    SELECT DISTINCT x FROM (
                      SELECT e.xmin::text AS x FROM effect_record e JOIN operation o ON o.id = e.operation_ref
                      WHERE o.operation_id = ?
                      UNION ALL SELECT c.xmin::text FROM graph_checkpoint c WHERE c.thread_id = ?) t
                    """, String.class, operationId.value(), operationId.value()))
                    .as("one transaction wrote both").hasSize(1);
        });

        var outcome = graphs.runner(graph(gateway, outcomes), GraphOptions.none()).run(LeaseGuard.of(leased.fence()),
                Map.of());

        assertThat(outcome).isInstanceOf(RunOutcome.Completed.class);
        assertThat(outcomes).singleElement().isInstanceOf(EffectOutcome.Done.class);
        assertThat(status("receipt")).isEqualTo("SUCCEEDED");
        assertThat(checkpoints()).as("__START__ and receipt").isEqualTo(2);
        assertThat(events("AgentToolCompleted")).isEqualTo(1);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aTakeoverBetweenTheAnswerAndTheCheckpointLeavesNeitherAndTheNewHolderFindsTheOutcomeUnknown()
            throws Exception {
        EffectGateway gateway = TestGateways.holding(node, tools);
        cacheTheClass();
        LeasedOperation stale = lease("node-a");
        AtomicReference<LeasedOperation> current = new AtomicReference<>();
        duringCall.set(() -> {
            // node A stalls in the call; its lease runs out and node B takes the operation over
            jdbc.update("UPDATE operation SET lease_expires_at = now() - interval '1 second' WHERE operation_id = ?",
                    operationId.value());
            current.set(lease("node-b"));
        });
        List<EffectOutcome> outcomes = new ArrayList<>();

        assertThatThrownBy(() -> graphs.runner(graph(gateway, outcomes), GraphOptions.none())
                .run(LeaseGuard.of(stale.fence()), Map.of()))
                .isInstanceOfSatisfying(CheckpointFencedException.class,
                        refused -> assertThat(refused.fence()).isEqualTo(stale.fence()));
        assertThat(status("receipt")).as("the answer node A got is not recorded").isEqualTo("STARTED");
        assertThat(checkpoints()).as("only the run's first, committed with STARTED before the call").isEqualTo(1);
        assertThat(events("AgentToolCompleted")).isZero();

        duringCall.set(() -> { });
        newHolderFindsTheOutcomeUnknown(current.get());
    }

    /**
     * The run's first checkpoint is held and sent with the first STARTED in one round trip; when
     * the thread moved on meanwhile (another writer appended, under the same lease), the checkpoint
     * is not appended and the STARTED sent with it is not written either: the tool is not called.
     */
    @Test
    void aFirstCheckpointWhoseThreadMovedOnTakesTheFirstStartedWithIt() throws Exception {
        EffectGateway gateway = TestGateways.holding(node, tools);
        servedFromTheCache();
        LeasedOperation leased = lease("node-a");
        List<EffectOutcome> outcomes = new ArrayList<>();
        UUID foreign = UUID.randomUUID();
        var graph = new StateGraph<>(new JsonStateSerializer<>(AgentState::new))
                .addNode("receipt", GraphStep.node((state, config) -> {
                    jdbc.update("INSERT INTO graph_checkpoint (thread_id, seq, checkpoint_id, node_id, next_node_id, state) "
                            + "VALUES (?, 1, ?, '__START__', 'receipt', '{}'::jsonb)", operationId.value(), foreign);
                    var outcome = gateway.perform(new Effect(GraphRunner.leaseOf(config).fence(), "receipt", send,
                            Map.of("to", "ann@example.com"), null));
                    outcomes.add(outcome);
                    return StepResult.stop(new ExecutionOutcome.NeedsReview(outcome.toString()));
                }))
                .addEdge(START, "receipt").addEdge("receipt", END);

        try {
            graphs.runner(graph, GraphOptions.none()).run(LeaseGuard.of(leased.fence()), Map.of());
        } catch (RuntimeException whatTheRunMakesOfIt) {
            // the run's own end is not what this test is about: what was written and called is
        }

        assertThat(outcomes).singleElement().isInstanceOfSatisfying(EffectOutcome.LeaseLost.class,
                lost -> assertThat(lost.refused()).as("refused with the first STARTED, sent with the checkpoint")
                        .contains("the writes its run held, with its STARTED record was refused"));
        assertThat(calls).as("the tool is not called").hasValue(0);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM effect_record e JOIN operation o ON o.id = e.operation_ref "
                + "WHERE o.operation_id = ?", Long.class, operationId.value())).as("no STARTED").isZero();
        assertThat(events("AgentToolStarted")).isZero();
        assertThat(jdbc.queryForList("SELECT checkpoint_id FROM graph_checkpoint WHERE thread_id = ?", UUID.class,
                operationId.value())).as("the other writer's checkpoint, not the run's first").containsExactly(foreign);
    }

    /**
     * The checkpoint that commits after the step's outcome does not lock the operation's row again
     * (the outcome's fence holds it until the commit): a takeover tried in between, once the lease
     * has run out, finds the row locked and takes nothing; it takes the operation once the outcome
     * and the checkpoint have committed.
     */
    @Test
    void aTakeoverTriedWhileTheOutcomeAndTheCheckpointCommitTakesNothingUntilTheyHave() throws Exception {
        EffectGateway gateway = TestGateways.holding(node, tools);
        RunWrites held = node.getBean(RunWrites.class);
        cacheTheClass();
        LeasedOperation leased = lease("node-a");
        duringCall.set(() -> jdbc.update("UPDATE operation SET lease_expires_at = now() - interval '1 second' "
                + "WHERE operation_id = ?", operationId.value()));
        AtomicReference<Boolean> lockedForTheCheckpoint = new AtomicReference<>();
        AtomicReference<List<LeasedOperation>> takenMeanwhile = new AtomicReference<>();
        var graph = new StateGraph<>(new JsonStateSerializer<>(AgentState::new))
                .addNode("receipt", GraphStep.node((state, config) -> {
                    var outcome = gateway.perform(new Effect(GraphRunner.leaseOf(config).fence(), "receipt", send,
                            Map.of("to", "ann@example.com"), null));
                    // held after the outcome: runs in its transaction, between it and the checkpoint
                    held.hold(operationId, () -> {
                        lockedForTheCheckpoint.set(held.rowLocked(operationId));
                        takenMeanwhile.set(CompletableFuture.supplyAsync(() -> lifecycle.lease("node-b", 1000,
                                Duration.ofSeconds(30))).join());
                        return true;
                    });
                    return StepResult.next(Map.of("sent", ((EffectOutcome.Done) outcome).result()));
                }))
                .addEdge(START, "receipt").addEdge("receipt", END);

        var outcome = graphs.runner(graph, GraphOptions.none()).run(LeaseGuard.of(leased.fence()), Map.of());

        assertThat(outcome).isInstanceOf(RunOutcome.Completed.class);
        assertThat(lockedForTheCheckpoint.get()).as("the outcome's fence locked the row in this transaction").isTrue();
        assertThat(takenMeanwhile.get()).extracting(LeasedOperation::operationId).doesNotContain(operationId);
        assertThat(status("receipt")).isEqualTo("SUCCEEDED");
        assertThat(checkpoints()).as("__START__ and receipt").isEqualTo(2);
        assertThat(lease("node-b").fence().epoch()).as("taken over once they committed")
                .isEqualTo(leased.fence().epoch() + 1);
    }

    /** Only a transaction of {@link RunWrites} in which a held write of the operation wrote holds its row's lock. */
    @Test
    void theRowIsLockedForTheCallersWriteOnlyAfterAHeldWriteOfTheOperationWroteInItsTransaction() {
        RunWrites held = node.getBean(RunWrites.class);
        OperationId other = new OperationId(UUID.randomUUID());
        held.begin(operationId);
        try {
            assertThat(held.together(operationId, () -> held.rowLocked(operationId)).result())
                    .as("nothing held: the caller's write runs alone").isFalse();
            held.hold(operationId, () -> true);
            var together = held.together(operationId, () -> List.of(held.rowLocked(operationId), held.rowLocked(other)));
            assertThat(together.held()).isEqualTo(RunWrites.Held.WRITTEN);
            assertThat(together.result()).as("this operation's row, not another's").containsExactly(true, false);
            assertThat(held.rowLocked(operationId)).as("after the commit").isFalse();

            AtomicReference<Boolean> inTheRefusingTransaction = new AtomicReference<>();
            held.hold(operationId, () -> true);
            held.hold(operationId, () -> false);
            assertThat(held.together(operationId, () -> true).held()).isEqualTo(RunWrites.Held.REFUSED);
            held.hold(operationId, () -> {
                inTheRefusingTransaction.set(held.rowLocked(operationId));
                return false;
            });
            assertThat(held.flush(operationId)).isFalse();
            assertThat(inTheRefusingTransaction.get()).as("no held write had written before it").isFalse();
            assertThat(held.rowLocked(operationId)).as("after a rollback").isFalse();
        } finally {
            held.end(operationId);
        }
    }

    @Test
    void aWorkersRunCommitsTheLastOutcomeAndCheckpointWithTheEndOfTheRun() throws Exception {
        EffectGateway gateway = TestGateways.holding(node, tools);
        cacheTheClass();
        List<EffectOutcome> outcomes = new ArrayList<>();
        var runner = graphs.runner(graph(gateway, outcomes), GraphOptions.none());

        runOneWorker("node-a", (operation, lease) -> {
            RunOutcome outcome = runner.run(lease, Map.of(), operation.firstLease());
            // the graph has ended: its last step's outcome and checkpoint wait for the end of the run
            assertThat(status("receipt")).isEqualTo("STARTED");
            assertThat(checkpoints()).as("the first, committed with STARTED").isEqualTo(1);
            return outcome instanceof RunOutcome.Completed ? new ExecutionOutcome.Succeeded()
                    : new ExecutionOutcome.Failed(outcome.toString());
        });

        assertThat(jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class,
                operationId.value())).isEqualTo("SUCCEEDED");
        assertThat(status("receipt")).isEqualTo("SUCCEEDED");
        assertThat(checkpoints()).isEqualTo(2);
        assertThat(events("AgentToolCompleted")).isEqualTo(1);
        assertThat(calls).hasValue(1);
        // one transaction wrote the three: the rows it left carry its id
        assertThat(jdbc.queryForList("""
                SELECT DISTINCT x FROM (
                  SELECT e.xmin::text AS x FROM effect_record e JOIN operation o ON o.id = e.operation_ref
                  WHERE o.operation_id = ? AND e.step_key = 'receipt'
                  UNION ALL SELECT c.xmin::text FROM graph_checkpoint c WHERE c.thread_id = ? AND c.next_node_id = ?
                  UNION ALL SELECT o.xmin::text FROM operation o WHERE o.operation_id = ?) t
                """, String.class, operationId.value(), operationId.value(), END, operationId.value()))
                .as("the last outcome, the last checkpoint and the end of the run").hasSize(1);
    }

    @Test
    void aTakeoverBeforeTheEndOfTheRunLeavesTheLastOutcomeUnknownAndTheEndUnwritten() throws Exception {
        EffectGateway gateway = TestGateways.holding(node, tools);
        cacheTheClass();
        var runner = graphs.runner(graph(gateway, new ArrayList<>()), GraphOptions.none());
        AtomicReference<LeasedOperation> current = new AtomicReference<>();

        runOneWorker("node-a", (operation, lease) -> {
            runner.run(lease, Map.of(), operation.firstLease());
            // node A stalls after the graph's end; its lease runs out and node B takes the operation over
            jdbc.update("UPDATE operation SET lease_expires_at = now() - interval '1 second' WHERE operation_id = ?",
                    operationId.value());
            current.set(lease("node-b"));
            return new ExecutionOutcome.Succeeded();
        });

        assertThat(jdbc.queryForObject("SELECT status || ' ' || lease_owner FROM operation WHERE operation_id = ?",
                String.class, operationId.value())).as("node A's end refused").isEqualTo("RUNNING node-b");
        assertThat(status("receipt")).as("the answer node A got is not recorded").isEqualTo("STARTED");
        assertThat(checkpoints()).as("only the run's first").isEqualTo(1);
        assertThat(events("AgentToolCompleted")).isZero();

        newHolderFindsTheOutcomeUnknown(current.get());
    }

    /**
     * The last outcome, the last checkpoint and the end of the run are sent in one round trip;
     * when the thread moved on before them (another writer appended, the lease still the run's),
     * the checkpoint refuses all three: the operation stays RUNNING, its last call's outcome unknown.
     */
    @Test
    void aLastCheckpointWhoseThreadMovedOnTakesTheOutcomeAndTheEndOfTheRunWithIt() throws Exception {
        EffectGateway gateway = TestGateways.holding(node, tools);
        servedFromTheCache();
        var runner = graphs.runner(graph(gateway, new ArrayList<>()), GraphOptions.none());
        UUID foreign = UUID.randomUUID();

        runOneWorker("node-a", (operation, lease) -> {
            runner.run(lease, Map.of(), operation.firstLease());
            jdbc.update("INSERT INTO graph_checkpoint (thread_id, seq, checkpoint_id, node_id, next_node_id, state) "
                    + "VALUES (?, 2, ?, 'receipt', '__END__', '{}'::jsonb)", operationId.value(), foreign);
            return new ExecutionOutcome.Succeeded();
        });

        assertThat(jdbc.queryForObject("SELECT status || ' ' || lease_owner FROM operation WHERE operation_id = ?",
                String.class, operationId.value())).as("the end of the run refused").isEqualTo("RUNNING node-a");
        assertThat(status("receipt")).as("the last answer is not recorded").isEqualTo("STARTED");
        assertThat(events("AgentToolCompleted")).isZero();
        assertThat(jdbc.queryForList("SELECT checkpoint_id FROM graph_checkpoint WHERE thread_id = ? AND seq > 1",
                UUID.class, operationId.value())).as("the other writer's, not the run's last").containsExactly(foreign);
    }

    /** Node B, holding the lease now, runs the step again: the never-repeat call's outcome is unknown, and it does not call. */
    private void newHolderFindsTheOutcomeUnknown(LeasedOperation current) throws Exception {
        List<EffectOutcome> taken = new ArrayList<>();
        var outcome = graphs.runner(graph(TestGateways.holding(node, tools), taken), GraphOptions.none())
                .run(LeaseGuard.of(current.fence()), Map.of());

        assertThat(outcome).isInstanceOf(RunOutcome.Stopped.class);
        assertThat(taken).singleElement().isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(calls).as("never-repeat: node B does not call again").hasValue(1);
    }

    /**
     * A worker of the node's own kind (its runs registry and held writes) runs this test's
     * operation with {@code executor}, and is stopped once that run has ended and been recorded.
     */
    private void runOneWorker(String name, OperationExecutor executor) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        var worker = new OperationWorker(name, lifecycle, (operation, lease) -> {
            if (!operation.operationId().equals(operationId)) {
                return new ExecutionOutcome.Succeeded(); // another test's leftover
            }
            try {
                return executor.execute(operation, lease);
            } finally {
                ran.countDown();
            }
        }, new WorkerProperties(true, 4, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofMillis(50)),
                node.getBean(OperationRuns.class), OperationSpans.none(), node.getBean(RunWrites.class));
        worker.start();
        try {
            assertThat(ran.await(30, TimeUnit.SECONDS)).as("the worker ran the operation").isTrue();
        } finally {
            worker.stop(); // waits for the run to be recorded
        }
    }

    @Test
    void twoNodesStartingOneStepAtOnceCallANeverRepeatToolOnce() throws Exception {
        LeasedOperation leased = lease("node-a");
        cacheTheClass();
        EffectGateway a = TestGateways.over(node, tools);
        EffectGateway b = TestGateways.over(node, tools);
        var effect = new Effect(leased.fence(), "receipt", send, Map.of("to", "ann@example.com"), null);
        AtomicReference<EffectOutcome> second = new AtomicReference<>();
        duringCall.set(() -> {
            duringCall.set(() -> { });
            // b starts the same step while a's call is under way (its STARTED committed)
            second.set(CompletableFuture.supplyAsync(() -> b.perform(effect)).join());
        });

        EffectOutcome first = a.perform(effect);

        assertThat(first).isInstanceOf(EffectOutcome.Done.class);
        assertThat(second.get()).isInstanceOf(EffectOutcome.NeedsReview.class);
        assertThat(calls).as("a's only").hasValue(1);
        assertThat(jdbc.queryForObject("SELECT e.calls FROM effect_record e JOIN operation o ON o.id = e.operation_ref "
                + "WHERE o.operation_id = ? AND e.step_key = 'receipt'", Integer.class, operationId.value())).isEqualTo(1);
    }

    /** The tool's class read (and recorded from its annotations) once, so this node's cache holds it. */
    /**
     * The tool's class in the node's cache, so that a first call's STARTED is the one statement
     * sent with what the run held ({@code startFirst}): the cache serves once the node listens for
     * registry changes, and the write of the class's first record drops it again when its
     * notification arrives.
     */
    private void servedFromTheCache() {
        var classification = node.getBean(ClassificationService.class);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).until(() -> {
            cacheTheClass();
            Thread.sleep(300);
            return classification.cached(send).isPresent();
        });
    }

    private void cacheTheClass() {
        node.getBean(ClassificationService.class).classOf(send, () -> tools.hints(send));
    }

    private String status(String step) {
        return jdbc.queryForObject("SELECT e.status FROM effect_record e JOIN operation o ON o.id = e.operation_ref "
                + "WHERE o.operation_id = ? AND e.step_key = ?", String.class, operationId.value(), step);
    }

    private long checkpoints() {
        return jdbc.queryForObject("SELECT count(*) FROM graph_checkpoint WHERE thread_id = ?", Long.class,
                operationId.value());
    }

    private long events(String type) {
        return jdbc.queryForObject("SELECT count(*) FROM outbox_event WHERE operation_id = ? AND type = ?", Long.class,
                operationId.value(), type);
    }
}

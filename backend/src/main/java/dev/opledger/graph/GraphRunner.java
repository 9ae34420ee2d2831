package dev.opledger.graph;

import dev.opledger.graph.internal.OperationRuns;
import dev.opledger.graph.internal.StateJson;
import dev.opledger.graph.internal.StepNode;
import dev.opledger.graph.internal.StoredCheckpoint;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationMdc;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.bsc.async.AsyncGenerator;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphInput;
import org.bsc.langgraph4j.GraphRunnerException;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.action.InterruptionMetadata;
import org.bsc.langgraph4j.state.AgentState;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * One compiled graph, run on threads named by operationIds. Every call reads the thread from
 * PostgreSQL first, so any node (or a fresh JVM) can continue any thread. Runs are synchronous,
 * outside any transaction (each checkpoint commits on its own), one at a time per thread in
 * this JVM; across nodes the worker's lease keeps them apart (see
 * {@link PostgresCheckpointSaver} for what happens when it does not).
 */
public final class GraphRunner<S extends AgentState> {

    private static final Logger log = LoggerFactory.getLogger(GraphRunner.class);

    // the lease of a run started with run(LeaseGuard, …), for the run's nodes (leaseOf)
    private static final String LEASE = "opledger.lease";

    private final CompiledGraph<S> graph;
    private final PostgresCheckpointSaver saver;
    private final OperationRuns running;

    GraphRunner(CompiledGraph<S> graph, PostgresCheckpointSaver saver, OperationRuns running) {
        this.graph = graph;
        this.saver = saver;
        this.running = running;
    }

    /**
     * Starts the operation's thread with {@code input}, or resumes it when it already has a
     * checkpoint (then {@code input} is ignored): what a worker does with an operation it leased,
     * not knowing how far a previous holder got.
     */
    public RunOutcome run(OperationId operationId, Map<String, Object> input) {
        return exclusively(operationId, () -> {
            RunnableConfig config = config(operationId, null);
            boolean started = saver.get(config).isPresent();
            return execute(operationId, started ? GraphInput.resume() : GraphInput.args(input), config);
        });
    }

    /**
     * As {@link #run(OperationId, Map)}, for a worker holding the operation's lease: every
     * checkpoint of the run is written only while the operation is RUNNING in the lease's epoch;
     * once it is not, the run ends with {@link CheckpointFencedException} and writes nothing more.
     * The run's nodes find {@code lease} with {@link #leaseOf(RunnableConfig)}.
     */
    public RunOutcome run(LeaseGuard lease, Map<String, Object> input) {
        return run(lease, input, false);
    }

    /**
     * As {@link #run(LeaseGuard, Map)}; with {@code firstLease}, the worker's first lease of the
     * operation ({@link dev.opledger.claim.LeasedOperation#firstLease()}): no run came before, so
     * the thread is known to be empty and is not read. Were it not (a checkpoint written outside
     * any run), the run's first checkpoint, expecting an empty thread, would be refused and the
     * run would stop before its first effect.
     */
    public RunOutcome run(LeaseGuard lease, Map<String, Object> input, boolean firstLease) {
        OperationId operationId = lease.fence().operationId();
        return exclusively(operationId, () -> {
            saver.fenceWith(lease);
            if (firstLease) {
                saver.assumeEmpty(operationId);
            }
            RunnableConfig config = RunnableConfig.builder(config(operationId, null)).putMetadata(LEASE, lease).build();
            var held = saver.held();
            if (held == null) {
                boolean started = saver.get(config).isPresent();
                return execute(operationId, started ? GraphInput.resume() : GraphInput.args(input), config);
            }
            // each step's effect outcome commits with its checkpoint; one the run stopped after
            // without a checkpoint commits here, before the worker records the run's end, or with
            // that end, where the worker carries it there (and the last checkpoint with it)
            held.begin(operationId);
            try {
                boolean started = saver.get(config).isPresent();
                return execute(operationId, started ? GraphInput.resume() : GraphInput.args(input), config);
            } finally {
                if (!held.end(operationId)) {
                    log.warn("operation {}: the run's last effect outcome was refused by lease {}: not recorded",
                            operationId, lease.fence());
                }
            }
        });
    }

    /** The lease of the run a node is part of: the one given to {@link #run(LeaseGuard, Map)}. */
    public static LeaseGuard leaseOf(RunnableConfig config) {
        return config.metadata(LEASE).filter(LeaseGuard.class::isInstance).map(LeaseGuard.class::cast)
                .orElseThrow(() -> new IllegalStateException("node " + config.nodeId() + " of thread "
                        + config.threadId().orElse("?") + " runs without a lease"));
    }

    /** Continues from the newest checkpoint: the node it names next runs from its start. */
    public RunOutcome resume(OperationId operationId) {
        return exclusively(operationId, () -> {
            RunnableConfig config = config(operationId, null);
            requireCheckpoint(operationId, config);
            return execute(operationId, GraphInput.resume(), config);
        });
    }

    /**
     * Runs again from an earlier checkpoint: the nodes after it run again and their checkpoints
     * are appended after the thread's newest, the first with {@code checkpointId} as parent.
     */
    public RunOutcome replayFrom(OperationId operationId, UUID checkpointId) {
        return exclusively(operationId, () -> {
            RunnableConfig config = config(operationId, checkpointId);
            requireCheckpoint(operationId, config);
            return execute(operationId, GraphInput.resume(), config);
        });
    }

    /** Merges {@code values} into the newest checkpoint's state as a new checkpoint; returns its id. */
    public UUID updateState(OperationId operationId, Map<String, Object> values) {
        return updateState(operationId, values, null);
    }

    /**
     * As {@link #updateState(OperationId, Map)}; with {@code asNode}, the new checkpoint's next
     * node is the one the graph's edges lead to from {@code asNode}, as if it had just run.
     */
    public UUID updateState(OperationId operationId, Map<String, Object> values, @Nullable String asNode) {
        return exclusively(operationId, () -> {
            RunnableConfig config = config(operationId, null);
            try {
                RunnableConfig updated = graph.updateState(config, values, asNode);
                return UUID.fromString(updated.checkPointId().orElseThrow());
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new GraphRunFailedException(operationId, e);
            }
        });
    }

    private RunOutcome execute(OperationId operationId, GraphInput input, RunnableConfig config) {
        Optional<ExecutionOutcome> stopped;
        try {
            var outputs = graph.stream(input, config);
            for (var ignored : outputs) {
                // each step has been checkpointed by the time it is handed out
            }
            stopped = stop(AsyncGenerator.resultValue(outputs));
        } catch (RuntimeException e) {
            throw failure(operationId, e);
        }
        StoredCheckpoint newest = saver.newest(operationId.value())
                .orElseThrow(() -> new IllegalStateException("operation " + operationId + " ran without a checkpoint"));
        Map<String, Object> state = StateJson.read(newest.stateJson());
        if (stopped.isPresent()) {
            return new RunOutcome.Stopped(operationId, newest.checkpointId(), newest.nextNodeId(), state, stopped.get());
        }
        return StateGraph.END.equals(newest.nextNodeId())
                ? new RunOutcome.Completed(operationId, newest.checkpointId(), state)
                : new RunOutcome.Paused(operationId, newest.checkpointId(), newest.nextNodeId(), state);
    }

    /** The outcome a {@link GraphStep} stopped the run with: the metadata of the interruption the run ended in. */
    private static Optional<ExecutionOutcome> stop(Optional<Object> result) {
        return result.filter(InterruptionMetadata.class::isInstance)
                .flatMap(interruption -> ((InterruptionMetadata<?>) interruption).metadata(StepNode.STOP))
                .filter(ExecutionOutcome.class::isInstance).map(ExecutionOutcome.class::cast);
    }

    private <T> T exclusively(OperationId operationId, Supplier<T> work) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("graph runs must not join a transaction: each checkpoint commits on its own");
        }
        var run = running.enterGraph(operationId);
        saver.enter(operationId);
        // restores the caller's operationId (the worker's, for the same operation) when the run ends
        try (var ignored = OperationMdc.put(operationId)) {
            return work.get();
        } finally {
            saver.forget(operationId);
            running.exitGraph(run);
        }
    }

    private void requireCheckpoint(OperationId operationId, RunnableConfig config) {
        if (saver.get(config).isEmpty()) {
            throw new IllegalStateException("operation " + operationId + " has no checkpoint"
                    + config.checkPointId().map(id -> " " + id).orElse("") + " to resume from");
        }
    }

    private static RunnableConfig config(OperationId operationId, @Nullable UUID checkpointId) {
        var builder = RunnableConfig.builder().threadId(operationId.toString());
        if (checkpointId != null) {
            builder.checkPointId(checkpointId.toString());
        }
        return builder.build();
    }

    /** A conflict passes as it is; a node's exception is unwrapped from langgraph4j's wrappers. */
    private static RuntimeException failure(OperationId operationId, Throwable thrown) {
        Throwable cause = thrown;
        while (cause.getCause() != null && (cause instanceof CompletionException || cause instanceof ExecutionException
                || cause instanceof GraphRunnerException || cause.getClass() == RuntimeException.class)) {
            cause = cause.getCause();
        }
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof CheckpointConflictException conflict) {
                return conflict;
            }
        }
        return new GraphRunFailedException(operationId, cause);
    }
}

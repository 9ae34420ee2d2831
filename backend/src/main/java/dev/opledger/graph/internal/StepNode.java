package dev.opledger.graph.internal;

import static java.util.concurrent.CompletableFuture.completedFuture;

import dev.opledger.graph.GraphStep;
import dev.opledger.graph.StepResult;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.AsyncNodeActionWithConfig;
import org.bsc.langgraph4j.action.InterruptableAction;
import org.bsc.langgraph4j.action.InterruptionMetadata;
import org.bsc.langgraph4j.state.AgentState;

/**
 * A {@link GraphStep} as a langgraph4j node. langgraph4j has one way for a node to end a run that
 * neither writes the node's checkpoint nor throws (it logs every exception it passes on at
 * ERROR): an interruption, which it asks an {@link InterruptableAction} for just before it
 * applies the node. So the step runs there: a {@link StepResult.Stop} becomes an interruption
 * carrying the outcome under {@link #STOP} (the runner returns it as {@code RunOutcome.Stopped}),
 * and a {@link StepResult.Next} is kept for {@link #apply}, which langgraph4j calls right after,
 * on the same run, and which hands the update on to be checkpointed.
 */
public final class StepNode<S extends AgentState> implements AsyncNodeActionWithConfig<S>, InterruptableAction<S> {

    /** The interruption's metadata key for the {@code ExecutionOutcome} a step stopped the run with. */
    public static final String STOP = "opledger.stop";

    private final GraphStep<S> step;
    // by thread id: runs of different threads share the compiled graph; one thread runs once at a time
    private final Map<String, Map<String, Object>> updates = new ConcurrentHashMap<>();

    public StepNode(GraphStep<S> step) {
        this.step = step;
    }

    @Override
    public Optional<InterruptionMetadata<S>> interrupt(String nodeId, S state, RunnableConfig config) {
        return switch (step.apply(state, config)) {
            case StepResult.Next next -> {
                updates.put(threadId(config), next.update());
                yield Optional.empty();
            }
            case StepResult.Stop stop ->
                    Optional.of(InterruptionMetadata.builder(nodeId, state).putMetadata(STOP, stop.outcome()).build());
        };
    }

    @Override
    public CompletableFuture<Map<String, Object>> apply(S state, RunnableConfig config) {
        Map<String, Object> update = updates.remove(threadId(config));
        if (update == null) {
            throw new IllegalStateException("step " + config.nodeId() + " was applied without having run");
        }
        return completedFuture(update);
    }

    private static String threadId(RunnableConfig config) {
        return config.threadId().orElseThrow(() -> new IllegalStateException("a graph step ran without a thread id"));
    }
}

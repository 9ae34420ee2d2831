package dev.opledger.graph;

import dev.opledger.graph.internal.StepNode;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.AsyncNodeActionWithConfig;
import org.bsc.langgraph4j.state.AgentState;

/**
 * A graph node that can end the run with the operation's outcome instead of an exception: it
 * returns {@link StepResult.Stop}, and the run returns {@link RunOutcome.Stopped} with that
 * outcome. Add it to a graph with {@link #node(GraphStep)}.
 */
@FunctionalInterface
public interface GraphStep<S extends AgentState> {

    StepResult apply(S state, RunnableConfig config);

    /** The step as a langgraph4j node. */
    static <S extends AgentState> AsyncNodeActionWithConfig<S> node(GraphStep<S> step) {
        return new StepNode<>(step);
    }
}

package dev.opledger.graph;

import static java.util.concurrent.CompletableFuture.completedFuture;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.action.AsyncNodeActionWithConfig;
import org.bsc.langgraph4j.action.InterruptableAction;
import org.bsc.langgraph4j.action.InterruptionMetadata;
import org.bsc.langgraph4j.state.AgentState;

/**
 * A node that interrupts itself until the state holds an {@code approval}, as the checkout's
 * approval step will; counts how often it was asked and how often it ran.
 */
final class ApprovalGate implements AsyncNodeActionWithConfig<AgentState>, InterruptableAction<AgentState> {

    final AtomicInteger asked = new AtomicInteger();
    final AtomicInteger ran = new AtomicInteger();

    @Override
    public Optional<InterruptionMetadata<AgentState>> interrupt(String nodeId, AgentState state, RunnableConfig config) {
        asked.incrementAndGet();
        return state.value("approval").isPresent()
                ? Optional.empty()
                : Optional.of(InterruptionMetadata.builder(nodeId, state).build());
    }

    @Override
    public CompletableFuture<Map<String, Object>> apply(AgentState state, RunnableConfig config) {
        ran.incrementAndGet();
        return completedFuture(Map.of("approvedBy", state.value("approval").orElseThrow()));
    }
}

package dev.opledger.graph;

import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.state.AgentState;

/**
 * reserve → capture → receipt, counting how often each node starts. {@code capture} can be set
 * to throw after it started (a crash half-way through the node) or to run a hook first.
 */
final class CheckoutLikeGraph {

    static final List<String> NODES = List.of("reserve", "capture", "receipt");

    private final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
    private final AtomicInteger captureFailuresLeft = new AtomicInteger();
    private volatile Runnable captureHook = () -> { };
    private volatile Consumer<String> onStart = node -> { };

    /** The next {@code times} starts of capture throw after counting. */
    CheckoutLikeGraph failCapture(int times) {
        captureFailuresLeft.set(times);
        return this;
    }

    CheckoutLikeGraph onCapture(Runnable hook) {
        this.captureHook = hook;
        return this;
    }

    /** Called with a node's id as it starts, after it is counted. */
    CheckoutLikeGraph onStart(Consumer<String> hook) {
        this.onStart = hook;
        return this;
    }

    int starts(String node) {
        return starts.computeIfAbsent(node, n -> new AtomicInteger()).get();
    }

    StateGraph<AgentState> build() {
        try {
            return nodes()
                    .addEdge(START, "reserve")
                    .addEdge("reserve", "capture")
                    .addEdge("capture", "receipt")
                    .addEdge("receipt", END);
        } catch (GraphStateException e) {
            throw new IllegalStateException(e);
        }
    }

    /** reserve → approve → capture → receipt, with {@code gate} as the approve node. */
    StateGraph<AgentState> buildWithApproval(ApprovalGate gate) {
        try {
            return nodes()
                    .addNode("approve", gate)
                    .addEdge(START, "reserve")
                    .addEdge("reserve", "approve")
                    .addEdge("approve", "capture")
                    .addEdge("capture", "receipt")
                    .addEdge("receipt", END);
        } catch (GraphStateException e) {
            throw new IllegalStateException(e);
        }
    }

    private StateGraph<AgentState> nodes() throws GraphStateException {
        return new StateGraph<>(new JsonStateSerializer<>(AgentState::new))
                .addNode("reserve", node_async(state -> {
                    started("reserve");
                    return Map.of("reservation", Map.of("sku", state.value("sku").orElse("?"), "units", 2));
                }))
                .addNode("capture", node_async(state -> {
                    started("capture");
                    captureHook.run();
                    if (captureFailuresLeft.getAndDecrement() > 0) {
                        throw new IllegalStateException("simulated crash inside capture");
                    }
                    return Map.of("captured", true);
                }))
                .addNode("receipt", node_async(state -> {
                    started("receipt");
                    return Map.of("receipt", "sent to " + state.value("email").orElse("nobody"));
                }));
    }

    private void started(String node) {
        starts.computeIfAbsent(node, n -> new AtomicInteger()).incrementAndGet();
        onStart.accept(node);
    }
}

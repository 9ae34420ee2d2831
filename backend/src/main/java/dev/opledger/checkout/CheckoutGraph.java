package dev.opledger.checkout;

import static org.bsc.langgraph4j.StateGraph.START;
import static org.bsc.langgraph4j.action.AsyncEdgeAction.edge_async;

import dev.opledger.graph.JsonStateSerializer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.action.AsyncNodeActionWithConfig;

/**
 * The checkout as a langgraph4j graph: one node per {@link CheckoutStep}, {@code reserve} first,
 * and after every node a conditional edge that asks the {@link CheckoutPlanner} for the next
 * step. The edge's answer is written into the node's checkpoint as the next node, so a resumed run
 * goes where the planner said without asking again.
 *
 * <pre>
 * START → reserve ─┬──────────────→ capture → [points] → [shipping] → [wrap] → receipt → END
 *                  └→ approval ─┬─↗ (approved)
 *                               └→ release → END (rejected)
 * a step after reserve failed (refused, given up): → [refund, after a capture] → release → END
 * </pre>
 */
final class CheckoutGraph {

    private CheckoutGraph() {
    }

    static StateGraph<CheckoutState> build(Map<CheckoutStep, AsyncNodeActionWithConfig<CheckoutState>> nodes,
            CheckoutPlanner planner) {
        Map<String, String> anyStep = Arrays.stream(CheckoutStep.values()).map(CheckoutStep::key)
                .collect(Collectors.toMap(Function.identity(), Function.identity(), (a, b) -> a, LinkedHashMap::new));
        try {
            var graph = new StateGraph<>(new JsonStateSerializer<>(CheckoutState::new));
            for (var node : nodes.entrySet()) {
                graph.addNode(node.getKey().key(), node.getValue());
            }
            graph.addEdge(START, CheckoutStep.RESERVE.key());
            for (CheckoutStep step : nodes.keySet()) {
                graph.addConditionalEdges(step.key(), edge_async(state -> next(planner, step, state)), anyStep);
            }
            return graph;
        } catch (GraphStateException e) {
            throw new IllegalStateException("the checkout graph does not build: " + e.getMessage(), e);
        }
    }

    private static String next(CheckoutPlanner planner, CheckoutStep finished, CheckoutState state) {
        CheckoutStep next = planner.next(finished, state.data());
        if (next == CheckoutStep.RESERVE) {
            throw new IllegalStateException("the planner chose reserve after " + finished.key() + ": it runs first only");
        }
        return next.key();
    }
}

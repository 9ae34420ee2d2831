package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;

import dev.opledger.operation.OperationId;
import dev.opledger.testing.NodeIntegrationTest;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.state.AgentState;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A step that ends the run returns the outcome instead of throwing, and leaves no checkpoint of its own. */
@NodeIntegrationTest
class GraphStepIT {

    @Autowired
    GraphService graphs;

    final AtomicInteger captures = new AtomicInteger();
    final AtomicReference<StepResult> capture = new AtomicReference<>();

    private StateGraph<AgentState> graph() throws GraphStateException {
        return new StateGraph<>(new JsonStateSerializer<>(AgentState::new))
                .addNode("reserve", GraphStep.node((state, config) -> StepResult.next(Map.of("reserved", true))))
                .addNode("capture", GraphStep.node((state, config) -> {
                    captures.incrementAndGet();
                    return capture.get();
                }))
                .addEdge(START, "reserve").addEdge("reserve", "capture").addEdge("capture", END);
    }

    @Test
    void aStepThatStopsTheRunReturnsItsOutcomeAndTheThreadKeepsTheCheckpointBeforeIt() throws Exception {
        var runner = graphs.runner(graph(), GraphOptions.none());
        var operation = OperationId.random();
        capture.set(StepResult.stop(new ExecutionOutcome.NeedsReview("capture: ask a person")));

        var stopped = runner.run(operation, Map.of("sku", "S-1"));

        assertThat(stopped).isInstanceOfSatisfying(RunOutcome.Stopped.class, s -> {
            assertThat(s.outcome()).isEqualTo(new ExecutionOutcome.NeedsReview("capture: ask a person"));
            assertThat(s.nextNode()).isEqualTo("capture");
            assertThat(s.state()).containsEntry("reserved", true).doesNotContainKey("captured");
        });
        // __START__ and reserve; nothing for the step that stopped
        assertThat(graphs.history(operation)).hasSize(2).first()
                .satisfies(newest -> assertThat(newest.nextNodeId()).isEqualTo("capture"));

        capture.set(StepResult.next(Map.of("captured", true)));
        var completed = runner.run(operation, Map.of("sku", "S-1"));

        assertThat(completed).isInstanceOf(RunOutcome.Completed.class);
        assertThat(completed.state()).containsEntry("captured", true);
        assertThat(captures).hasValue(2);
        assertThat(graphs.history(operation)).hasSize(3);
    }
}

package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.operation.OperationId;
import dev.opledger.testing.NodeIntegrationTest;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Interrupts, state updates and resumes, as the checkout's approval step will use them. */
@NodeIntegrationTest
class GraphInterruptIT {

    @Autowired
    GraphService graphs;

    @Autowired
    DataSource dataSource;

    @Test
    void interruptBeforeStopsTheRunAndAfterAnUpdateTheResumeRunsThatNodeOnce() {
        var checkout = new CheckoutLikeGraph();
        var runner = graphs.runner(checkout.build(), GraphOptions.interruptBefore("capture"));
        var operation = OperationId.random();

        var paused = runner.run(operation, Map.of("sku", "F-6"));

        assertThat(paused).isInstanceOfSatisfying(RunOutcome.Paused.class,
                p -> assertThat(p.nextNode()).isEqualTo("capture"));
        assertThat(checkout.starts("capture")).isZero();
        CheckpointEntry interrupted = graphs.history(operation).getFirst();
        assertThat(interrupted.checkpointId()).isEqualTo(paused.checkpointId());

        var updated = runner.updateState(operation, Map.of("approval", "ops@example.com"));

        CheckpointEntry update = graphs.history(operation).getFirst();
        assertThat(update.checkpointId()).isEqualTo(updated);
        assertThat(update.parentId()).isEqualTo(interrupted.checkpointId());
        assertThat(update.nextNodeId()).isEqualTo("capture");
        assertThat(graphs.history(operation)).hasSize(3);

        var completed = runner.resume(operation);

        assertThat(completed).isInstanceOf(RunOutcome.Completed.class);
        assertThat(completed.state()).containsEntry("approval", "ops@example.com").containsEntry("captured", true);
        assertThat(List.of(checkout.starts("reserve"), checkout.starts("capture"), checkout.starts("receipt")))
                .containsExactly(1, 1, 1);
    }

    @Test
    void anInterruptedThreadIsResumedByAnotherNode() {
        var operation = OperationId.random();
        var first = new CheckoutLikeGraph();
        graphs.runner(first.build(), GraphOptions.interruptBefore("capture")).run(operation, Map.of("sku", "G-7"));

        var second = new CheckoutLikeGraph();
        var otherNode = new GraphService(dataSource).runner(second.build(), GraphOptions.interruptBefore("capture"));
        otherNode.updateState(operation, Map.of("approval", "ops@example.com"));
        var completed = otherNode.resume(operation);

        assertThat(completed).isInstanceOf(RunOutcome.Completed.class);
        assertThat(List.of(second.starts("reserve"), second.starts("capture"), second.starts("receipt")))
                .containsExactly(0, 1, 1);
    }

    @Test
    void interruptAfterPausesBehindTheNodeWhichDoesNotRunAgain() {
        var checkout = new CheckoutLikeGraph();
        var runner = graphs.runner(checkout.build(), GraphOptions.interruptAfter("reserve"));
        var operation = OperationId.random();

        var paused = runner.run(operation, Map.of("sku", "H-8"));
        var completed = runner.resume(operation);

        assertThat(paused).isInstanceOfSatisfying(RunOutcome.Paused.class,
                p -> assertThat(p.nextNode()).isEqualTo("capture"));
        assertThat(completed).isInstanceOf(RunOutcome.Completed.class);
        assertThat(checkout.starts("reserve")).isEqualTo(1);
        assertThat(checkout.starts("capture")).isEqualTo(1);
    }

    @Test
    void updatingStateAsANodeMovesTheThreadPastItWithoutRunningIt() {
        var checkout = new CheckoutLikeGraph();
        var runner = graphs.runner(checkout.build(), GraphOptions.interruptBefore("capture"));
        var operation = OperationId.random();
        runner.run(operation, Map.of("sku", "I-9"));

        runner.updateState(operation, Map.of("captured", "waived by ops"), "capture");
        var completed = runner.resume(operation);

        assertThat(graphs.history(operation).get(1).nextNodeId()).isEqualTo("receipt");
        assertThat(completed.state()).containsEntry("captured", "waived by ops");
        assertThat(checkout.starts("capture")).isZero();
        assertThat(checkout.starts("receipt")).isEqualTo(1);
    }

    @Test
    void aNodeThatInterruptsItselfIsAskedAgainOnResumeAndRunsOnceApproved() {
        var checkout = new CheckoutLikeGraph();
        var gate = new ApprovalGate();
        var runner = graphs.runner(checkout.buildWithApproval(gate), GraphOptions.none());
        var operation = OperationId.random();

        var paused = runner.run(operation, Map.of("sku", "J-10"));
        var stillPaused = runner.resume(operation);

        assertThat(paused).isInstanceOfSatisfying(RunOutcome.Paused.class,
                p -> assertThat(p.nextNode()).isEqualTo("approve"));
        assertThat(stillPaused.checkpointId()).isEqualTo(paused.checkpointId());
        assertThat(gate.asked.get()).isEqualTo(2);
        assertThat(gate.ran.get()).isZero();

        runner.updateState(operation, Map.of("approval", "ops@example.com"));
        var completed = runner.resume(operation);

        assertThat(completed).isInstanceOf(RunOutcome.Completed.class);
        assertThat(completed.state()).containsEntry("approvedBy", "ops@example.com");
        assertThat(gate.asked.get()).isEqualTo(3);
        assertThat(gate.ran.get()).isEqualTo(1);
        assertThat(List.of(checkout.starts("reserve"), checkout.starts("capture"))).containsExactly(1, 1);
    }
}

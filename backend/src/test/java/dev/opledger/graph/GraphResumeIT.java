package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.operation.OperationId;
import dev.opledger.testing.NodeIntegrationTest;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What a resume runs again, observed by counting node starts on real checkpoints. */
@NodeIntegrationTest
class GraphResumeIT {

    @Autowired
    GraphService graphs;

    @Autowired
    DataSource dataSource;

    @Test
    void aNodeThatFailedHalfWayRunsAgainFromItsStartWhileFinishedNodesDoNot() {
        var checkout = new CheckoutLikeGraph().failCapture(1);
        var runner = graphs.runner(checkout.build(), GraphOptions.none());
        var operation = OperationId.random();

        assertThatThrownBy(() -> runner.run(operation, Map.of("sku", "A-1")))
                .isInstanceOf(GraphRunFailedException.class)
                .cause().isInstanceOf(IllegalStateException.class).hasMessage("simulated crash inside capture");
        assertThat(graphs.history(operation)).extracting(CheckpointEntry::nodeId, CheckpointEntry::nextNodeId)
                .containsExactly(tuple("reserve", "capture"), tuple("__START__", "reserve"));

        var outcome = runner.resume(operation);

        assertThat(outcome).isInstanceOf(RunOutcome.Completed.class);
        assertThat(outcome.state()).containsEntry("captured", true).containsEntry("receipt", "sent to nobody");
        assertThat(List.of(checkout.starts("reserve"), checkout.starts("capture"), checkout.starts("receipt")))
                .containsExactly(1, 2, 1);
    }

    @Test
    void aFreshSaverOnTheSameDatabaseResumesTheThread() {
        var operation = OperationId.random();
        var firstNode = new CheckoutLikeGraph().failCapture(1);
        assertThatThrownBy(() -> graphs.runner(firstNode.build(), GraphOptions.none())
                .run(operation, Map.of("sku", "B-2", "email", "ünïcødé@example.com")))
                .isInstanceOf(GraphRunFailedException.class);

        // what a restarted or another node has: a new saver, a new compiled graph, nothing in memory
        var secondNode = new CheckoutLikeGraph();
        var outcome = new GraphService(dataSource).runner(secondNode.build(), GraphOptions.none())
                .run(operation, Map.of("sku", "ignored: the thread has started"));

        assertThat(outcome).isInstanceOf(RunOutcome.Completed.class);
        assertThat(outcome.state()).containsEntry("sku", "B-2").containsEntry("receipt", "sent to ünïcødé@example.com");
        assertThat(secondNode.starts("reserve")).isZero();
        assertThat(secondNode.starts("capture")).isEqualTo(1);
        assertThat(secondNode.starts("receipt")).isEqualTo(1);
    }

    @Test
    void resumingACompletedThreadRunsNoNodeAndWritesNoCheckpoint() {
        var checkout = new CheckoutLikeGraph();
        var runner = graphs.runner(checkout.build(), GraphOptions.none());
        var operation = OperationId.random();
        var first = runner.run(operation, Map.of("sku", "C-3"));

        var again = runner.run(operation, Map.of("sku", "C-3"));

        assertThat(again).isEqualTo(first);
        assertThat(checkout.starts("reserve") + checkout.starts("capture") + checkout.starts("receipt")).isEqualTo(3);
        assertThat(graphs.history(operation)).hasSize(4);
    }

    @Test
    void historyListsEveryCheckpointNewestFirstWithNodesParentsAndTimes() {
        var operation = OperationId.random();
        graphs.runner(new CheckoutLikeGraph().build(), GraphOptions.none()).run(operation, Map.of("sku", "D-4"));

        List<CheckpointEntry> history = graphs.history(operation);

        assertThat(history).extracting(CheckpointEntry::seq).containsExactly(4, 3, 2, 1);
        assertThat(history).extracting(CheckpointEntry::nodeId, CheckpointEntry::nextNodeId).containsExactly(
                tuple("receipt", "__END__"), tuple("capture", "receipt"), tuple("reserve", "capture"),
                tuple("__START__", "reserve"));
        for (int i = 0; i < history.size() - 1; i++) {
            assertThat(history.get(i).parentId()).isEqualTo(history.get(i + 1).checkpointId());
            assertThat(history.get(i).createdAt()).isAfterOrEqualTo(history.get(i + 1).createdAt());
        }
        assertThat(history.getLast().parentId()).isNull();
    }

    @Test
    void replayFromAnEarlierCheckpointRunsTheLaterNodesAgainAndAppendsAFork() {
        var checkout = new CheckoutLikeGraph();
        var runner = graphs.runner(checkout.build(), GraphOptions.none());
        var operation = OperationId.random();
        runner.run(operation, Map.of("sku", "E-5"));
        CheckpointEntry afterReserve = graphs.history(operation).get(2);
        assertThat(afterReserve.nodeId()).isEqualTo("reserve");

        var outcome = runner.replayFrom(operation, afterReserve.checkpointId());

        assertThat(outcome).isInstanceOf(RunOutcome.Completed.class);
        assertThat(List.of(checkout.starts("reserve"), checkout.starts("capture"), checkout.starts("receipt")))
                .containsExactly(1, 2, 2);
        List<CheckpointEntry> history = graphs.history(operation);
        assertThat(history).extracting(CheckpointEntry::nodeId)
                .containsExactly("receipt", "capture", "receipt", "capture", "reserve", "__START__");
        assertThat(history.get(1).parentId()).isEqualTo(afterReserve.checkpointId());
        assertThat(history.get(0).parentId()).isEqualTo(history.get(1).checkpointId());
        assertThat(outcome.checkpointId()).isEqualTo(history.getFirst().checkpointId());
    }

    private static org.assertj.core.groups.Tuple tuple(Object... values) {
        return org.assertj.core.groups.Tuple.tuple(values);
    }
}

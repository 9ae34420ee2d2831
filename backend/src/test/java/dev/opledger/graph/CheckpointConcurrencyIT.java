package dev.opledger.graph;

import static dev.opledger.graph.PostgresCheckpointSaverIT.checkpoint;
import static dev.opledger.graph.PostgresCheckpointSaverIT.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.operation.OperationId;
import dev.opledger.testing.LockWaits;
import dev.opledger.testing.NodeIntegrationTest;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two writers on one thread, which the worker's lease is meant to prevent: whatever the
 * interleaving, the thread keeps one linear history and the later writer gets
 * {@link CheckpointConflictException}.
 */
@NodeIntegrationTest
class CheckpointConcurrencyIT {

    private static final int ROUNDS = 25;

    @Autowired
    GraphService graphs;

    @Autowired
    DataSource dataSource;

    @Test
    void twoSaversPuttingAtOnceOnTheSameParentLeaveOneHistory() throws Exception {
        try (var pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < ROUNDS; round++) {
                var operation = OperationId.random();
                var config = config(operation);
                var parent = checkpoint("__START__", "reserve", Map.of("round", round));
                new PostgresCheckpointSaver(dataSource).put(config, parent);
                var nodeA = new PostgresCheckpointSaver(dataSource);
                var nodeB = new PostgresCheckpointSaver(dataSource);
                nodeA.get(config);
                nodeB.get(config);
                var a = checkpoint("reserve", "capture", Map.of("by", "A"));
                var b = checkpoint("reserve", "capture", Map.of("by", "B"));
                var go = new CountDownLatch(1);

                Future<?> putA = pool.submit(() -> awaitThen(go, () -> nodeA.put(config, a)));
                Future<?> putB = pool.submit(() -> awaitThen(go, () -> nodeB.put(config, b)));
                go.countDown();
                List<Throwable> failures = failures(putA, putB);

                assertThat(failures).singleElement().isInstanceOf(CheckpointConflictException.class);
                List<Checkpoint> history = new ArrayList<>(nodeA.list(config));
                assertThat(history).hasSize(2);
                assertThat(history.get(0).getId()).isIn(a.getId(), b.getId());
                assertThat(history.get(1).getId()).isEqualTo(parent.getId());
                assertThat(graphs.history(operation).getFirst().parentId()).isEqualTo(UUID.fromString(parent.getId()));
            }
        }
    }

    @Test
    void aSaverThatDidNotSeeTheOtherWritersCheckpointCannotAppendAfterIt() {
        var operation = OperationId.random();
        var config = config(operation);
        var parent = checkpoint("__START__", "reserve", Map.of());
        new PostgresCheckpointSaver(dataSource).put(config, parent);
        var nodeA = new PostgresCheckpointSaver(dataSource);
        var nodeB = new PostgresCheckpointSaver(dataSource);
        nodeA.get(config);
        nodeB.get(config);
        var a = checkpoint("reserve", "capture", Map.of("by", "A"));
        nodeA.put(config, a);

        assertThatThrownBy(() -> nodeB.put(config, checkpoint("reserve", "capture", Map.of("by", "B"))))
                .isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("moved on since this saver saw checkpoint " + parent.getId());
        assertThat(nodeB.list(config)).extracting(Checkpoint::getId).containsExactly(a.getId(), parent.getId());
    }

    @Test
    void aPutWaitingOnAnotherWritersUncommittedCheckpointFailsWhenThatOneCommits() throws Exception {
        var operation = OperationId.random();
        var config = config(operation);
        var saver = new PostgresCheckpointSaver(dataSource);
        saver.put(config, checkpoint("__START__", "reserve", Map.of()));

        CompletableFuture<RunnableConfig> blocked;
        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (var insert = other.prepareStatement("INSERT INTO graph_checkpoint (thread_id, seq, checkpoint_id, "
                    + "node_id, next_node_id, state) VALUES (?, 2, ?, 'reserve', 'capture', '{}')")) {
                insert.setObject(1, operation.value());
                insert.setObject(2, UUID.randomUUID());
                insert.executeUpdate();
            }
            blocked = CompletableFuture.supplyAsync(() -> saver.put(config, checkpoint("reserve", "capture", Map.of())));
            var jdbc = new JdbcTemplate(dataSource);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> LockWaits.aStatementWaits(jdbc, "WITH released AS"));
            other.commit();
        }

        assertThat(failureOf(blocked)).isInstanceOf(CheckpointConflictException.class)
                .hasMessageContaining("another writer appended at the same position");
        assertThat(graphs.history(operation)).hasSize(2);
    }

    @Test
    void aSecondNodeResumingTheSameThreadMakesTheFirstFailAtItsNextCheckpoint() throws Exception {
        var operation = OperationId.random();
        var insideCapture = new CountDownLatch(1);
        var letCaptureFinish = new CountDownLatch(1);
        var slowNode = new CheckoutLikeGraph().onCapture(() -> {
            insideCapture.countDown();
            await(letCaptureFinish);
        });
        var first = CompletableFuture.supplyAsync(() -> graphs.runner(slowNode.build(), GraphOptions.none())
                .run(operation, Map.of("sku", "K-11")));
        assertThat(insideCapture.await(30, TimeUnit.SECONDS)).isTrue();

        // the lease expired (wrongly) and another node took the operation over
        var otherNode = new CheckoutLikeGraph();
        var taken = new GraphService(dataSource).runner(otherNode.build(), GraphOptions.none()).run(operation, Map.of());
        letCaptureFinish.countDown();

        assertThat(taken).isInstanceOf(RunOutcome.Completed.class);
        assertThat(failureOf(first)).isInstanceOf(CheckpointConflictException.class);
        List<CheckpointEntry> history = graphs.history(operation);
        assertThat(history).extracting(CheckpointEntry::nodeId).containsExactly("receipt", "capture", "reserve", "__START__");
        for (int i = 0; i < history.size() - 1; i++) {
            assertThat(history.get(i).parentId()).isEqualTo(history.get(i + 1).checkpointId());
        }
        // both nodes ran capture: the saver keeps the history whole, only the lease prevents the double run
        assertThat(slowNode.starts("capture") + otherNode.starts("capture")).isEqualTo(2);
        assertThat(slowNode.starts("receipt")).isZero();
    }

    @Test
    void oneNodeRunsAThreadOnlyOnceAtATime() throws Exception {
        var operation = OperationId.random();
        var insideCapture = new CountDownLatch(1);
        var letCaptureFinish = new CountDownLatch(1);
        var runner = graphs.runner(new CheckoutLikeGraph().onCapture(() -> {
            insideCapture.countDown();
            await(letCaptureFinish);
        }).build(), GraphOptions.none());
        var first = CompletableFuture.supplyAsync(() -> runner.run(operation, Map.of("sku", "L-12")));
        assertThat(insideCapture.await(30, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> runner.resume(operation)).isInstanceOf(GraphThreadBusyException.class);
        letCaptureFinish.countDown();

        assertThat(first.get(30, TimeUnit.SECONDS)).isInstanceOf(RunOutcome.Completed.class);
    }

    private static void awaitThen(CountDownLatch latch, Runnable action) {
        await(latch);
        action.run();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<Throwable> failures(Future<?>... futures) throws Exception {
        List<Throwable> failures = new ArrayList<>();
        for (Future<?> future : futures) {
            try {
                future.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failures.add(e.getCause());
            }
        }
        return failures;
    }

    private static Throwable failureOf(CompletableFuture<?> future) throws Exception {
        try {
            future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("expected the call to fail");
    }
}

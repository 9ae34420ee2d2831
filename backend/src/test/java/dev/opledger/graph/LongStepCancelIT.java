package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.CancelChannel;
import dev.opledger.claim.CancelService;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LifecycleService;
import dev.opledger.graph.internal.OperationWorker;
import dev.opledger.graph.internal.WorkerProperties;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A step that works long without an effect learns of a cancel from the worker's heartbeat (the
 * renewed row says a cancel is pending), through its lease, and stops: the run ends CANCELLED
 * within a few heartbeats of the request, not when the step would have ended.
 */
@NodeIntegrationTest
class LongStepCancelIT {

    private static final Duration HEARTBEAT = Duration.ofMillis(300);
    /** Longer than the test may take: only the cancel ends this step early. */
    private static final Duration STEP = Duration.ofMinutes(2);

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    CancelService cancels;

    @Autowired
    JdbcTemplate jdbc;

    private OperationWorker worker;

    @AfterEach
    void stopWorker() {
        if (worker != null) {
            worker.stop();
        }
    }

    @Test
    void aLongStepStopsAtTheHeartbeatAfterACancelAndTheRunEndsCancelled() throws Exception {
        var subject = new SubjectId("long-step-" + UUID.randomUUID());
        OperationId operationId = Operations.claim(claims, subject, 1).getFirst();
        var started = new CountDownLatch(1);
        worker = new OperationWorker("long-step-node", lifecycle, (operation, lease) -> {
            if (!operation.operationId().equals(operationId)) {
                return new ExecutionOutcome.Succeeded();
            }
            started.countDown();
            long until = System.nanoTime() + STEP.toNanos();
            // the step's work, in slices: between them it looks at the lease's flag, a field
            while (System.nanoTime() < until) {
                if (lease.cancelRequested()) {
                    return new ExecutionOutcome.Cancelled("the long step stopped for the cancel");
                }
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
            return new ExecutionOutcome.Succeeded();
        }, new WorkerProperties(true, 2, Duration.ofSeconds(3), HEARTBEAT, Duration.ofMillis(50)));
        worker.start();
        assertThat(started.await(20, TimeUnit.SECONDS)).as("the worker started the step").isTrue();

        long requested = System.nanoTime();
        cancels.cancelOwn(subject, operationId, CancelChannel.REST);
        await().atMost(HEARTBEAT.multipliedBy(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> status(operationId), "CANCELLED"::equals);
        Duration took = Duration.ofNanos(System.nanoTime() - requested);

        assertThat(took).as("a few heartbeats, not the step's two minutes").isLessThan(HEARTBEAT.multipliedBy(10));
        assertThat(jdbc.queryForMap("SELECT c.acknowledged_by, c.resolution FROM operation_cancel c "
                + "JOIN operation o ON o.id = c.operation_ref WHERE o.operation_id = ?", operationId.value()))
                .isEqualTo(Map.of("acknowledged_by", "long-step-node", "resolution", "STOPPED"));
        assertThat(jdbc.queryForList("SELECT type FROM outbox_event WHERE operation_id = ? ORDER BY sequence",
                String.class, operationId.value()))
                .containsExactly("OperationAccepted", "OperationRunning", "CancelRequested", "CancelAcknowledged",
                        "OperationCancelled");
        assertThat(jdbc.queryForObject("SELECT cancel_pending_since IS NULL AND lease_owner IS NULL FROM operation "
                + "WHERE operation_id = ?", Boolean.class, operationId.value())).isTrue();
    }

    private String status(OperationId operationId) {
        return jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class,
                operationId.value());
    }
}

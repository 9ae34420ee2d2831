package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.OtherNode;
import dev.opledger.claim.internal.OperationReader;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * A node's worker that has nothing to do waits for its next poll, but an operation accepted on the
 * node wakes it at once, and one accepted on another node wakes it by that node's notification:
 * with a poll interval of a minute, claims still run within seconds.
 */
@NodeIntegrationTest
@TestPropertySource(properties = {"opledger.worker.enabled=true", "opledger.worker.poll-interval=60s"})
@Import(WorkerNudgeIT.ProbeTypeConfiguration.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS) // stops this context's workers
class WorkerNudgeIT {

    @Autowired
    ClaimService claims;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    DataSource dataSource;

    @Autowired
    OperationReader reader;

    @Test
    void anOperationClaimedOnTheNodeRunsWithoutWaitingForThePoll() {
        var subject = new SubjectId("nudge-" + UUID.randomUUID());
        for (int i = 0; i < 2; i++) {
            // the second claim finds the worker idle, waiting out its minute
            OperationId id = Operations.claim(claims, subject, 1, ProbeType.NAME, "{}").getFirst();
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(jdbc.queryForObject(
                    "SELECT status FROM operation WHERE operation_id = ?", String.class, id.value()))
                    .isEqualTo("SUCCEEDED"));
        }
    }

    @Test
    void anOperationClaimedOnAnotherNodeWakesThisNodesIdleWorkerByItsNotification() {
        var subject = new SubjectId("nudge-other-" + UUID.randomUUID());
        try (var other = new OtherNode(dataSource, reader)) {
            for (int i = 0; i < 2; i++) {
                // nothing in-process reaches this node's worker: only the other node's NOTIFY
                OperationId id = Operations.claim(other.claims, subject, 1, ProbeType.NAME, "{}").getFirst();
                await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(jdbc.queryForObject(
                        "SELECT status FROM operation WHERE operation_id = ?", String.class, id.value()))
                        .isEqualTo("SUCCEEDED"));
                Double pickedUpMillis = jdbc.queryForObject("""
                        SELECT extract(epoch FROM r.occurred_at - o.created_at) * 1000 FROM operation o
                        JOIN operation_transition r ON r.operation_ref = o.id AND r.to_status = 'RUNNING'
                        WHERE o.operation_id = ?""", Double.class, id.value());
                System.out.printf("WorkerNudgeIT: claimed on another node, RUNNING here after %.1f ms%n", pickedUpMillis);
            }
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class ProbeTypeConfiguration {

        @Bean
        ProbeType probeType() {
            return new ProbeType();
        }
    }

    /** An operation type whose run succeeds at once. */
    static final class ProbeType implements OperationType {

        static final String NAME = "probe";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String argumentsSchema() {
            return "operation-types-test/probe.schema.json";
        }

        @Override
        public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
            return new ExecutionOutcome.Succeeded();
        }
    }
}

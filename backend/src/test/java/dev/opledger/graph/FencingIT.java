package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Issue 9, fencing: every lease of an operation has its own epoch, and a node whose lease was taken
 * over can write nothing for the operation any more.
 */
@NodeIntegrationTest
class FencingIT {

    @Autowired
    ClaimService claims;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    JdbcTemplate jdbc;

    OperationId operationId;

    @BeforeEach
    void claim() {
        operationId = Operations.claim(claims, new SubjectId("fencing-" + UUID.randomUUID()), 1).getFirst();
    }

    private LeasedOperation lease(String node) {
        return lifecycle.lease(node, 1000, Duration.ofSeconds(30)).stream()
                .filter(o -> o.operationId().equals(operationId)).findFirst().orElseThrow();
    }

    /** Node A's lease runs out as if its heartbeats had stopped (a stall); node B takes the operation over. */
    private void expireLease() {
        jdbc.update("UPDATE operation SET lease_expires_at = now() - interval '1 second' WHERE operation_id = ?",
                operationId.value());
    }

    @Test
    void everyLeaseAndEveryTakeoverHasTheNextEpoch() {
        LeasedOperation first = lease("node-a");
        expireLease();
        LeasedOperation takenOver = lease("node-b");

        assertThat(first.fence().operationId()).isEqualTo(operationId);
        assertThat(takenOver.fence().operationId()).isEqualTo(operationId);
        assertThat(takenOver.fence().epoch()).isEqualTo(first.fence().epoch() + 1);
        assertThat(jdbc.queryForObject("SELECT lease_epoch FROM operation WHERE operation_id = ?", Long.class,
                operationId.value())).isEqualTo(takenOver.fence().epoch());
    }
}

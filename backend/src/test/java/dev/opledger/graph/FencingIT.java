package dev.opledger.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectGateway;
import dev.opledger.effect.EffectOutcome;
import dev.opledger.effect.TestGateways;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
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
    GraphService graphs;

    @Autowired
    ApplicationContext node;

    @Autowired
    JdbcTemplate jdbc;

    private final AtomicInteger toolCalls = new AtomicInteger();

    /** Answers every call, counting them: a refused effect must not reach it. */
    private final ToolClient tools = new ToolClient() {
        @Override
        public ToolReply call(ToolRef tool, Map<String, Object> arguments) {
            toolCalls.incrementAndGet();
            return new ToolReply(false, Map.of("reservation", "r-1"), "ok");
        }

        @Override
        public Optional<ToolHints> hints(ToolRef tool) {
            return Optional.empty();
        }
    };

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

    @Test
    void aNodeWhoseLeaseWasTakenOverCanWriteNothingAndCallsNoTool() {
        LeasedOperation stale = lease("node-a");
        expireLease();
        LeasedOperation current = lease("node-b");
        EffectGateway gateway = TestGateways.over(node, tools);
        var reserve = new ToolRef("shop", "reserve_inventory");

        var effect = gateway.perform(new Effect(stale.fence(), "reserve", reserve, Map.of("sku", "A-1"), null));
        var checkpoints = graphs.runner(new CheckoutLikeGraph().build(), GraphOptions.none());

        assertThat(effect).isInstanceOfSatisfying(EffectOutcome.LeaseLost.class,
                lost -> assertThat(lost.refused()).contains("STARTED", "reserve", stale.fence().toString()));
        assertThat(toolCalls).as("no tool called for the stale lease").hasValue(0);
        assertThat(count("SELECT count(*) FROM effect_record e JOIN operation o ON o.id = e.operation_ref "
                + "WHERE o.operation_id = ?")).isZero();
        assertThatThrownBy(() -> checkpoints.run(LeaseGuard.of(stale.fence()), Map.of("sku", "A-1")))
                .isInstanceOfSatisfying(CheckpointFencedException.class,
                        refused -> assertThat(refused.fence()).isEqualTo(stale.fence()));
        assertThat(count("SELECT count(*) FROM graph_checkpoint WHERE thread_id = ?")).isZero();
        assertThat(lifecycle.heartbeat("node-a", List.of(stale.fence()), Duration.ofSeconds(30)).held()).isEmpty();
        assertThat(lifecycle.finishRun(stale.fence(), "node-a", OperationStatus.FAILED, "late")).isFalse();
        assertThat(lifecycle.finishRun(stale.fence(), "node-b", OperationStatus.SUCCEEDED, null))
                .as("the holder's node id with the stale epoch").isFalse();
        assertThat(count("SELECT count(*) FROM outbox_event WHERE operation_id = ? AND type LIKE 'AgentTool%'")).isZero();

        // the holder of the current lease writes all of it
        assertThat(gateway.perform(new Effect(current.fence(), "reserve", reserve, Map.of("sku", "A-1"), null)))
                .isInstanceOf(EffectOutcome.Done.class);
        assertThat(checkpoints.run(LeaseGuard.of(current.fence()), Map.of("sku", "A-1")))
                .isInstanceOf(RunOutcome.Completed.class);
        assertThat(lifecycle.heartbeat("node-b", List.of(current.fence()), Duration.ofSeconds(30)).held())
                .isEqualTo(Set.of(current.fence()));
        assertThat(lifecycle.finishRun(current.fence(), "node-b", OperationStatus.SUCCEEDED, null)).isTrue();
        assertThat(toolCalls).hasValue(1);
        assertThat(jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class,
                operationId.value())).isEqualTo("SUCCEEDED");
    }

    @Test
    void aWriteAfterTheRunEndedIsRefusedEvenInTheSameEpoch() {
        LeasedOperation leased = lease("node-a");
        assertThat(lifecycle.finishRun(leased.fence(), "node-a", OperationStatus.AWAITING_APPROVAL, "over limit")).isTrue();

        var effect = TestGateways.over(node, tools).perform(new Effect(leased.fence(), "capture",
                new ToolRef("shop", "capture_payment"), Map.of(), null));

        assertThat(effect).isInstanceOf(EffectOutcome.LeaseLost.class);
        assertThat(toolCalls).hasValue(0);
        assertThat(lifecycle.finishRun(leased.fence(), "node-a", OperationStatus.SUCCEEDED, null)).isFalse();
    }

    private long count(String sql) {
        Long count = jdbc.queryForObject(sql, Long.class, operationId.value());
        return count == null ? 0 : count;
    }
}

package dev.opledger.graph.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.OperationType;
import dev.opledger.operation.Fence;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GraphOperationExecutorTest {

    private final List<LeasedOperation> ran = new ArrayList<>();

    private OperationType type(String name, ExecutionOutcome outcome) {
        return new OperationType() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String argumentsSchema() {
                return "operation-types/" + name + ".schema.json";
            }

            @Override
            public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
                ran.add(operation);
                return outcome;
            }
        };
    }

    private static LeasedOperation leased(String type) {
        return new LeasedOperation(new SubjectId("alice"), new Fence(OperationId.random(), 1), type,
                "{\"type\":\"" + type + "\",\"arguments\":{}}", 1, OperationStatus.ACCEPTED);
    }

    @Test
    void runsTheOperationWithTheTypeItsCommandNames() {
        var executor = new GraphOperationExecutor(List.of(type("checkout", new ExecutionOutcome.Succeeded()),
                type("refund", new ExecutionOutcome.Failed("no"))));
        var operation = leased("checkout");

        var outcome = executor.execute(operation, LeaseGuard.of(operation.fence()));

        assertThat(outcome).isEqualTo(new ExecutionOutcome.Succeeded());
        assertThat(ran).containsExactly(operation);
    }

    @Test
    void anOperationOfAnUnknownTypeFailsWithTheReasonAndRunsNothing() {
        var executor = new GraphOperationExecutor(List.of(type("checkout", new ExecutionOutcome.Succeeded())));

        var teleport = leased("teleport");
        var outcome = executor.execute(teleport, LeaseGuard.of(teleport.fence()));

        assertThat(outcome).isEqualTo(new ExecutionOutcome.Failed(
                "unknown operation type 'teleport': this node runs [checkout]"));
        assertThat(ran).isEmpty();
    }

    @Test
    void twoTypesOfOneNameAreRefusedAtStartUp() {
        assertThatThrownBy(() -> new GraphOperationExecutor(List.of(type("checkout", new ExecutionOutcome.Succeeded()),
                type("checkout", new ExecutionOutcome.Succeeded()))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("two operation types are named 'checkout'");
    }
}

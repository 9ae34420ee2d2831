package dev.opledger.graph.internal;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.OperationExecutor;
import dev.opledger.graph.OperationType;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Runs a leased operation with the {@link OperationType} its command names. Its presence is what
 * starts this node's workers ({@code WorkerConfiguration}). An operation whose type no bean names
 * (claimed before the API checked types, or by a node that knew a type this one does not) fails
 * with the reason rather than waiting for ever.
 */
@Component
class GraphOperationExecutor implements OperationExecutor {

    private final Map<String, OperationType> types;

    GraphOperationExecutor(List<OperationType> types) {
        this.types = types.stream().collect(Collectors.toUnmodifiableMap(OperationType::name, Function.identity(),
                (first, second) -> {
                    throw new IllegalStateException("two operation types are named '" + first.name() + "': "
                            + first.getClass().getName() + " and " + second.getClass().getName());
                }));
    }

    @Override
    public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
        OperationType type = types.get(operation.type());
        if (type == null) {
            return new ExecutionOutcome.Failed("unknown operation type '" + operation.type() + "': this node runs "
                    + types.keySet().stream().sorted().toList());
        }
        return type.execute(operation, lease);
    }
}

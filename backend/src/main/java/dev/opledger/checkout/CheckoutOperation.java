package dev.opledger.checkout;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.OperationType;
import org.springframework.stereotype.Component;

/** The {@code checkout} operation type. Its graph is not wired yet: no worker runs it. */
@Component
class CheckoutOperation implements OperationType {

    static final String NAME = "checkout";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String argumentsSchema() {
        return "operation-types/checkout.schema.json";
    }

    @Override
    public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
        return new ExecutionOutcome.Failed("the checkout graph is not wired yet");
    }
}

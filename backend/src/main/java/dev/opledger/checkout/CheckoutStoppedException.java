package dev.opledger.checkout;

import dev.opledger.graph.ExecutionOutcome;

/**
 * A step cannot go on: the tool refused, the effect needs a person's review, the lease is lost, or
 * the step's preconditions do not hold. Thrown out of the node, so the thread keeps the checkpoint
 * before it: if the operation is ever run again (a person sent it back), the step runs again and
 * the effect gateway's record decides what its effect does.
 */
final class CheckoutStoppedException extends RuntimeException {

    private final transient ExecutionOutcome outcome;

    CheckoutStoppedException(ExecutionOutcome outcome) {
        super(outcome.toString(), null, false, false);
        this.outcome = outcome;
    }

    static CheckoutStoppedException failed(String reason) {
        return new CheckoutStoppedException(new ExecutionOutcome.Failed(reason));
    }

    ExecutionOutcome outcome() {
        return outcome;
    }
}

package dev.opledger.checkout;

import dev.opledger.graph.LeaseGuard;
import dev.opledger.operation.OperationId;

/**
 * What the graph's nodes need of the run under way and cannot keep in the state: the lease, whose
 * fence every effect carries.
 */
record CheckoutRun(LeaseGuard lease) {

    OperationId operationId() {
        return lease.fence().operationId();
    }
}

package dev.opledger.checkout;

import dev.opledger.graph.LeaseGuard;
import dev.opledger.operation.OperationId;

/**
 * What the graph's nodes need of the run under way and cannot keep in the state: the ledger's key
 * and the lease, whose fence every effect carries.
 */
record CheckoutRun(long operationRef, LeaseGuard lease) {

    OperationId operationId() {
        return lease.fence().operationId();
    }
}

package dev.opledger.claim;

import dev.opledger.claim.internal.SettleWaiters;
import dev.opledger.operation.OperationStatus;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Service;

/**
 * Waiting for an operation to settle — to end, or to need a person (AWAITING_APPROVAL,
 * NEEDS_REVIEW) — without a thread per waiter: the answer is a future, completed when the
 * operation settles on any node (this node's own status changes, and other nodes' through
 * PostgreSQL notifications) or at the deadline.
 */
@Service
public class OperationWaits {

    private final SettleWaiters waiters;

    OperationWaits(SettleWaiters waiters) {
        this.waiters = waiters;
    }

    /** Whether a wait ends at this status. */
    public static boolean endsWait(OperationStatus status) {
        return SettleWaiters.endsWait(status);
    }

    /**
     * The operation once it settled, or as it is after {@code max}; at once when it already has,
     * or when {@code max} is not positive. {@code current} is the caller's read of its own
     * operation ({@link ClaimService#find}, or a claim's answer): the answer is read under that
     * subject.
     */
    public CompletableFuture<OperationState> untilSettled(OperationState current, Duration max) {
        return waiters.await(current, max);
    }
}

package dev.opledger.notification;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** Telling others of a change only once it is committed: after the current transaction's commit, or now when there is none. */
public final class AfterCommit {

    private AfterCommit() {
    }

    /** Runs {@code tell} once the current transaction commits (never, if it rolls back), or now outside one. */
    public static void run(Runnable tell) {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            tell.run();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                tell.run();
            }
        });
    }
}

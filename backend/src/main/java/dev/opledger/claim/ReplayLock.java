package dev.opledger.claim;

import dev.opledger.operation.OperationStatus;

/**
 * The subject's operation, its row locked until the caller's transaction ends: what a replay's
 * start checks its dry run against before it changes anything.
 *
 * @param eventSequence the number of the operation's last event: every change of the operation
 *     (a status, an effect record, a decision) writes an event, so an equal number means nothing
 *     changed since it was read
 * @param held whether a worker holds the operation's lease
 * @param commandType the operation's type (the command's {@code "type"})
 */
public record ReplayLock(OperationStatus status, long eventSequence, boolean held, String commandType) {
}

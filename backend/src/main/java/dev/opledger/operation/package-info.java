/**
 * The shared kernel of the path: the identities every stage carries (operationId, subject,
 * payload hash), the command as received, and the operation statuses. OperationId, Command and
 * PayloadHash come from module {@code protocol} (same package), which the CLI and the device side
 * share; the subject, the statuses, the fence and the log context are the node's.
 */
@NullMarked
package dev.opledger.operation;

import org.jspecify.annotations.NullMarked;

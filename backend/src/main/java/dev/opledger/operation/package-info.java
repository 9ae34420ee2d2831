/**
 * The shared kernel of the path: the identities every stage carries (operationId, subject,
 * payload hash), the command as received, and the operation statuses.
 */
@NullMarked
package dev.opledger.operation;

import org.jspecify.annotations.NullMarked;

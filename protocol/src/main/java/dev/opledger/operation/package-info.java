/**
 * The protocol's half of the kernel (module {@code protocol}): the operationId, the command as
 * received and its payload hash (RFC 8785), which a device and the node compute alike. The node
 * adds the subject, the statuses and the fence to this package (module {@code backend}).
 */
@NullMarked
package dev.opledger.operation;

import org.jspecify.annotations.NullMarked;

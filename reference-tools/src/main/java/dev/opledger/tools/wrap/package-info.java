/**
 * Gift wrapping: {@code wrap_gift}, a long-running tool (a task of the MCP tasks extension,
 * seconds, cancellable until it ends), keyed like capture_payment: a repeat with the same
 * idempotency key finds the call's task instead of wrapping again.
 */
@NullMarked
package dev.opledger.tools.wrap;

import org.jspecify.annotations.NullMarked;

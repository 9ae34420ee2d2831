/**
 * Payment: {@code capture_payment}, keyed like reserve_inventory: a repeat with the same
 * idempotency key returns the committed payment; the same key with another amount or currency is
 * refused. {@code refund_payment} gives a payment back, keyed like release_inventory: a payment is
 * refunded at most once whatever the key.
 */
@NullMarked
package dev.opledger.tools.payment;

import org.jspecify.annotations.NullMarked;

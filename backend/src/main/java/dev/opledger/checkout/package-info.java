/**
 * The reference operation type, {@code checkout}: reserve inventory, wait for a person's approval
 * when the amount is over a limit, capture the payment, send a receipt. Every effect goes through
 * the effect gateway.
 */
@NullMarked
package dev.opledger.checkout;

import org.jspecify.annotations.NullMarked;

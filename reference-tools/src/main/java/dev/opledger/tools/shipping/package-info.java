/**
 * Shipping: {@code set_shipping_address} sets (replaces) an order's single address, so a repeat
 * leaves the same state: idempotent, and destructive because it overwrites the previous address.
 * Only a call that changes the address is an effect.
 */
@NullMarked
package dev.opledger.tools.shipping;

import org.jspecify.annotations.NullMarked;

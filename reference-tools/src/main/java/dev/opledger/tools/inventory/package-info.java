/**
 * Inventory: {@code reserve_inventory} (keyed: a repeat with the same idempotency key returns the
 * committed reservation; the same key with other arguments is refused) and the read-only lookup
 * {@code get_product}. Stock lives on the product row; a reservation takes it away.
 */
@NullMarked
package dev.opledger.tools.inventory;

import org.jspecify.annotations.NullMarked;

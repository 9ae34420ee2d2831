/**
 * Inventory: {@code reserve_inventory} (keyed: a repeat with the same idempotency key returns the
 * committed reservation; the same key with other arguments is refused), {@code release_inventory}
 * (keyed the same way; a reservation is released at most once) and the read-only lookup
 * {@code get_product}. Stock lives on the product row; a reservation takes it away, a release
 * puts it back.
 */
@NullMarked
package dev.opledger.tools.inventory;

import org.jspecify.annotations.NullMarked;

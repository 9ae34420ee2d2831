package dev.opledger.tools.shipping;

import dev.opledger.tools.toolkit.ToolOutcome;
import java.time.Instant;
import java.util.Map;

/**
 * An order's address after a set.
 *
 * @param changed false when the order already had this address (nothing was written)
 */
record AddressSet(String orderId, String address, boolean changed, Instant updatedAt) {

    ToolOutcome.Success asOutcome() {
        return new ToolOutcome.Success(Map.of("orderId", orderId, "address", address, "changed", changed,
                "updatedAt", updatedAt.toString()),
                (changed ? "Set" : "Kept") + " the shipping address of order " + orderId);
    }
}

package dev.opledger.tools.inventory;

import dev.opledger.tools.toolkit.ToolArguments;
import java.util.Optional;

/** The business arguments of reserve_inventory: what a repeat with the same key must match. */
record ReservationRequest(String sku, long quantity, Optional<String> idempotencyKey) {

    static ReservationRequest from(ToolArguments arguments) {
        return new ReservationRequest(arguments.text("sku"), arguments.positiveInteger("quantity"),
                arguments.optionalText("idempotencyKey"));
    }

    boolean matches(Reservation reservation) {
        return sku.equals(reservation.sku()) && quantity == reservation.quantity();
    }
}

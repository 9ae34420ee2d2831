package dev.opledger.tools.inventory;

import dev.opledger.tools.toolkit.InvalidArgumentException;
import dev.opledger.tools.toolkit.ToolArguments;
import java.util.Optional;
import java.util.UUID;

/** The business arguments of release_inventory: what a repeat with the same key must match. */
record ReleaseRequest(UUID reservationId, Optional<String> idempotencyKey) {

    static ReleaseRequest from(ToolArguments arguments) {
        String reservationId = arguments.text("reservationId");
        try {
            return new ReleaseRequest(UUID.fromString(reservationId), arguments.optionalText("idempotencyKey"));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException("'reservationId' must be a reservation's id (a UUID)");
        }
    }

    boolean matches(Release release) {
        return reservationId.equals(release.reservationId());
    }
}

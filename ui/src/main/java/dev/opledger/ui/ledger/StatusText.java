package dev.opledger.ui.ledger;

import dev.opledger.operation.OperationStatus;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Why an operation is in its status, in words for the top of its page. */
final class StatusText {

    private StatusText() {
    }

    /** What to say under the status; empty when there is nothing to say. */
    static Optional<String> reason(OperationStatus status, @Nullable String reason) {
        String why = reason == null || reason.isBlank() ? "no reason was recorded" : reason;
        return switch (status) {
            case NEEDS_REVIEW -> Optional.of("Needs a person's review: " + why);
            case FAILED -> Optional.of("Failed: " + why);
            case AWAITING_APPROVAL -> Optional.of("Waiting for a person to approve or reject it: " + why);
            case AWAITING_INPUT -> Optional.of("Waiting for input from the client that submitted it (MCP tasks/update): "
                    + why);
            default -> Optional.ofNullable(reason == null || reason.isBlank() ? null : reason);
        };
    }
}

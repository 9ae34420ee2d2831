package dev.opledger.tools.inventory;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;

/**
 * Keyed: hands a reservation's stock back. A reservation is released at most once, so a repeat
 * never makes a second effect (idempotent, destructive: it cancels the reservation); with the
 * same idempotency key a repeat also gets the committed release back, where without one it is
 * refused with {@code ALREADY_RELEASED}. A caller that must learn the result of a lost call
 * repeats it with its key.
 */
class ReleaseInventoryTool implements ReferenceTool {

    static final String NAME = "release_inventory";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Release inventory",
            "Cancels a reservation and puts its stock back. A reservation is released once; with an "
                    + "idempotencyKey a repeat returns the committed release (same releaseId), without one a "
                    + "repeat is refused (ALREADY_RELEASED), and the same key for another reservation is an error.",
            InputSchema.forOperationStep()
                    .required("reservationId", InputSchema.text("The reservation, as reserve_inventory returned it"))
                    .optional("idempotencyKey", InputSchema.text("Makes a repeat return the first release")),
            ToolHints.write(true, true), RepeatClass.KEYED)
            .withMeta(ToolDescriptor.IDEMPOTENCY_KEY_ARGUMENT, "idempotencyKey");

    private final Inventory inventory;

    ReleaseInventoryTool(Inventory inventory) {
        this.inventory = inventory;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        return inventory.release(ReleaseRequest.from(arguments), arguments);
    }
}

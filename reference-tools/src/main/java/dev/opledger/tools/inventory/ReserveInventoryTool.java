package dev.opledger.tools.inventory;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.util.Map;

/**
 * Keyed: with an idempotency key a repeat returns the committed reservation; without one every
 * call reserves again, so the tool is not idempotent by itself.
 */
class ReserveInventoryTool implements ReferenceTool {

    static final String NAME = "reserve_inventory";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Reserve inventory",
            "Takes quantity units of a product out of stock for an operation. With an idempotencyKey, "
                    + "a repeat returns the committed reservation (same reservationId) and the same key "
                    + "with other arguments is an error.",
            InputSchema.forOperationStep()
                    .required("sku", InputSchema.text("The product, e.g. SKU-ESPRESSO"))
                    .required("quantity", Map.of("type", "integer", "minimum", 1))
                    .optional("idempotencyKey", InputSchema.text("Makes a repeat return the first reservation")),
            ToolHints.write(false, false), RepeatClass.KEYED)
            .withMeta(ToolDescriptor.IDEMPOTENCY_KEY_ARGUMENT, "idempotencyKey");

    private final Inventory inventory;

    ReserveInventoryTool(Inventory inventory) {
        this.inventory = inventory;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        return inventory.reserve(ReservationRequest.from(arguments), arguments);
    }
}

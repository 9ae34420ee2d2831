package dev.opledger.tools.inventory;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;

/** Read-only: a product's name, price and stock on hand. */
class GetProductTool implements ReferenceTool {

    static final String NAME = "get_product";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Get product",
            "A product's name, unit price and stock on hand. Changes nothing.",
            InputSchema.forOperationStep().required("sku", InputSchema.text("The product, e.g. SKU-ESPRESSO")),
            ToolHints.readOnly(), RepeatClass.READ_ONLY);

    private final Inventory inventory;

    GetProductTool(Inventory inventory) {
        this.inventory = inventory;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        String sku = arguments.text("sku");
        return inventory.product(sku)
                .<ToolOutcome>map(product -> new ToolOutcome.Success(product.asResult(),
                        product.name() + ": " + product.onHand() + " on hand at " + product.unitPrice() + " "
                                + product.currency()))
                .orElseGet(() -> new ToolOutcome.Failure("UNKNOWN_SKU", "no product with sku '" + sku + "'"));
    }
}

package dev.opledger.tools.shipping;

import dev.opledger.tools.toolkit.InputSchema;
import dev.opledger.tools.toolkit.ReferenceTool;
import dev.opledger.tools.toolkit.RepeatClass;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolDescriptor;
import dev.opledger.tools.toolkit.ToolHints;
import dev.opledger.tools.toolkit.ToolOutcome;

/** Idempotent: a set, not an append; destructive: it replaces the previous address. */
class SetShippingAddressTool implements ReferenceTool {

    static final String NAME = "set_shipping_address";

    private static final ToolDescriptor DESCRIPTOR = new ToolDescriptor(NAME, "Set shipping address",
            "Sets the shipping address of an order, replacing any previous one. Repeating the call "
                    + "leaves the same single address.",
            InputSchema.forOperationStep()
                    .required("orderId", InputSchema.text("The order"))
                    .required("address", InputSchema.text("The full postal address")),
            ToolHints.write(true, true), RepeatClass.IDEMPOTENT);

    private final ShippingAddresses addresses;

    SetShippingAddressTool(ShippingAddresses addresses) {
        this.addresses = addresses;
    }

    @Override
    public ToolDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public ToolOutcome call(ToolArguments arguments) {
        return addresses.set(arguments.text("orderId"), arguments.text("address"), arguments).asOutcome();
    }
}

package dev.opledger.tools.shipping;

import org.springframework.context.annotation.Import;

/**
 * The parts of set_shipping_address, for the application to import. Not a component, so an
 * application that scans {@code dev.opledger} never picks the tools up by accident.
 */
@Import({ShippingAddresses.class, SetShippingAddressTool.class})
public final class ShippingTools {

    ShippingTools() {
    }
}

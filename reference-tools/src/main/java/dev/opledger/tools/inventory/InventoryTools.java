package dev.opledger.tools.inventory;

import org.springframework.context.annotation.Import;

/**
 * The parts of reserve_inventory, release_inventory and get_product, for the application to
 * import. Not a component, so an application that scans {@code dev.opledger} never picks the tools up by accident.
 */
@Import({Inventory.class, ReserveInventoryTool.class, ReleaseInventoryTool.class, GetProductTool.class})
public final class InventoryTools {

    InventoryTools() {
    }
}

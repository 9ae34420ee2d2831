package dev.opledger.tools.wrap;

import org.springframework.context.annotation.Import;

/** The parts of wrap_gift, for the application to import (not a component: never scanned by a node). */
@Import({GiftWraps.class, WrapGiftTool.class})
public final class WrapTools {

    WrapTools() {
    }
}

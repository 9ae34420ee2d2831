package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import dev.opledger.effect.RecordedEffect;
import dev.opledger.ui.Formats;
import java.util.List;

/**
 * One operation's effect records, one per step, in the order the steps first started (the timeline
 * shows when): the tool, how a repeat is made, how it ended, and the (cut) result or error.
 */
class EffectsGrid extends Grid<RecordedEffect> {

    EffectsGrid(List<RecordedEffect> effects) {
        setId("effects-grid");
        addColumn(RecordedEffect::stepKey).setHeader("Step").setAutoWidth(true).setFlexGrow(0);
        addColumn(effect -> effect.server() + " / " + effect.tool()).setHeader("Tool").setAutoWidth(true);
        addColumn(effect -> TimelineText.repeatClass(effect.repeatClass())).setHeader("Class").setAutoWidth(true);
        addColumn(effect -> effect.status().name()).setHeader("Outcome").setAutoWidth(true);
        addColumn(RecordedEffect::calls).setHeader("Calls").setAutoWidth(true).setFlexGrow(0);
        addColumn(effect -> Formats.orDash(effect.idempotencyKey())).setHeader("Idempotency key").setAutoWidth(true);
        addColumn(effect -> effect.finishedAt() == null ? "—" : Formats.instant(effect.finishedAt()))
                .setHeader("Finished").setAutoWidth(true);
        // a width of its own: with auto widths all around, a long result would be squeezed to nothing
        addColumn(EffectsGrid::resultOrError).setHeader("Result or error").setTooltipGenerator(EffectsGrid::resultOrError)
                .setWidth("20em").setFlexGrow(1);
        setItems(effects);
        setAllRowsVisible(true);
        addThemeVariants(GridVariant.ROW_STRIPES, GridVariant.WRAP_CELL_CONTENT);
        setEmptyStateText("No tool has been called for this operation.");
    }

    private static String resultOrError(RecordedEffect effect) {
        if (effect.error() != null) {
            return "error: " + effect.error();
        }
        return Formats.orDash(effect.result());
    }
}

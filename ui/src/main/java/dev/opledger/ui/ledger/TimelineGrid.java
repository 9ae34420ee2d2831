package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import dev.opledger.graph.TimelineEntry;
import dev.opledger.ui.Formats;
import java.util.List;

/** Everything that happened to one operation, oldest first: attempts, status changes, checkpoints, effects. */
class TimelineGrid extends Grid<TimelineEntry> {

    TimelineGrid(List<TimelineEntry> entries) {
        setId("timeline-grid");
        addColumn(entry -> Formats.instant(entry.at())).setHeader("Time").setAutoWidth(true).setFlexGrow(0);
        addColumn(TimelineText::kind).setHeader("Event").setAutoWidth(true).setFlexGrow(0);
        addColumn(TimelineText::what).setHeader("What").setAutoWidth(true).setFlexGrow(0);
        addColumn(TimelineText::details).setHeader("Details").setTooltipGenerator(TimelineText::details)
                .setFlexGrow(1);
        setItems(entries);
        setAllRowsVisible(true);
        addThemeVariants(GridVariant.ROW_STRIPES, GridVariant.WRAP_CELL_CONTENT);
        setEmptyStateText("Nothing has happened to this operation yet.");
    }
}

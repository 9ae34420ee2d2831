package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import dev.opledger.graph.CheckpointEntry;
import dev.opledger.ui.Formats;
import java.util.Comparator;
import java.util.List;

/**
 * The checkpoints of an operation's graph, oldest first: which node had run, which runs next,
 * when, and what the state held then (its names and size, not its values, which may be a
 * customer's data).
 */
class CheckpointsGrid extends Grid<CheckpointEntry> {

    CheckpointsGrid(List<CheckpointEntry> checkpoints) {
        setId("checkpoints-grid");
        addColumn(CheckpointEntry::seq).setHeader("#").setAutoWidth(true).setFlexGrow(0);
        addColumn(CheckpointEntry::nodeId).setHeader("Node that ran").setAutoWidth(true);
        addColumn(CheckpointEntry::nextNodeId).setHeader("Next").setAutoWidth(true);
        addColumn(checkpoint -> Formats.instant(checkpoint.createdAt())).setHeader("Time").setAutoWidth(true);
        addColumn(TimelineText::stateSummary).setHeader("State").setTooltipGenerator(TimelineText::stateSummary)
                .setWidth("20em").setFlexGrow(1);
        setItems(checkpoints.stream().sorted(Comparator.comparingInt(CheckpointEntry::seq)).toList());
        setAllRowsVisible(true);
        addThemeVariants(GridVariant.ROW_STRIPES, GridVariant.WRAP_CELL_CONTENT);
        setEmptyStateText("The operation's graph has written no checkpoint.");
    }
}

package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import dev.opledger.graph.CheckpointEntry;
import dev.opledger.ui.Formats;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;

/**
 * The checkpoints of an operation's graph, oldest first: which node had run, which runs next,
 * when, and what the state held then (its names and size, not its values, which may be a
 * customer's data).
 */
class CheckpointsGrid extends Grid<CheckpointEntry> {

    /** Without the replay action: for a view that offers none. */
    CheckpointsGrid(List<CheckpointEntry> checkpoints) {
        this(checkpoints, null);
    }

    /** With "Replay from here" on every checkpoint before the end, which opens its dry run. */
    CheckpointsGrid(List<CheckpointEntry> checkpoints, @org.jspecify.annotations.Nullable Consumer<CheckpointEntry> replayFrom) {
        setId("checkpoints-grid");
        addColumn(CheckpointEntry::seq).setHeader("#").setAutoWidth(true).setFlexGrow(0);
        addColumn(CheckpointEntry::nodeId).setHeader("Node that ran").setAutoWidth(true);
        addColumn(CheckpointEntry::nextNodeId).setHeader("Next").setAutoWidth(true);
        addColumn(checkpoint -> Formats.instant(checkpoint.createdAt())).setHeader("Time").setAutoWidth(true);
        java.util.Map<java.util.UUID, Integer> seqs = new java.util.HashMap<>();
        checkpoints.forEach(checkpoint -> seqs.put(checkpoint.checkpointId(), checkpoint.seq()));
        addColumn(checkpoint -> derivedFrom(checkpoint, seqs)).setHeader("From").setAutoWidth(true);
        addColumn(TimelineText::stateSummary).setHeader("State").setTooltipGenerator(TimelineText::stateSummary)
                .setWidth("20em").setFlexGrow(1);
        if (replayFrom != null) {
            addComponentColumn(checkpoint -> {
                if ("__END__".equals(checkpoint.nextNodeId())) {
                    return new com.vaadin.flow.component.html.Span();
                }
                var replay = new Button("Replay from here", click -> replayFrom.accept(checkpoint));
                replay.setId("replay-from-" + checkpoint.seq());
                replay.addThemeVariants(ButtonVariant.TERTIARY, ButtonVariant.SMALL);
                return replay;
            }).setHeader("Replay").setAutoWidth(true).setFlexGrow(0);
        }
        setItems(checkpoints.stream().sorted(Comparator.comparingInt(CheckpointEntry::seq)).toList());
        setAllRowsVisible(true);
        addThemeVariants(GridVariant.ROW_STRIPES, GridVariant.WRAP_CELL_CONTENT);
        setEmptyStateText("The operation's graph has written no checkpoint.");
    }

    /** "#n" for the checkpoint it follows; "replay of #n" when it forks the history from an earlier one. */
    static String derivedFrom(CheckpointEntry checkpoint, java.util.Map<java.util.UUID, Integer> seqs) {
        if (checkpoint.parentId() == null) {
            return "";
        }
        Integer parent = seqs.get(checkpoint.parentId());
        if (parent == null) {
            return "";
        }
        return parent == checkpoint.seq() - 1 ? "#" + parent : "replay of #" + parent;
    }
}

package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import dev.opledger.outbox.OperationEvent;
import dev.opledger.ui.Formats;
import java.util.List;

/** One operation's events as they go to Kafka, by sequence: what each says and when the relay published it. */
class EventsGrid extends Grid<OperationEvent> {

    EventsGrid(List<OperationEvent> events) {
        setId("events-grid");
        addColumn(OperationEvent::sequence).setHeader("#").setAutoWidth(true).setFlexGrow(0);
        addColumn(event -> event.type().name()).setHeader("Event").setAutoWidth(true).setFlexGrow(0);
        addColumn(EventText::step).setHeader("Step").setAutoWidth(true).setFlexGrow(0);
        addColumn(OperationEvent::status).setHeader("Status").setAutoWidth(true).setFlexGrow(0);
        addColumn(event -> Formats.instant(event.occurredAt())).setHeader("Occurred").setAutoWidth(true).setFlexGrow(0);
        addColumn(EventText::published).setHeader("Published").setAutoWidth(true).setFlexGrow(0);
        addColumn(event -> Formats.shortId(event.eventId().toString())).setHeader("Event ID")
                .setTooltipGenerator(event -> event.eventId().toString()).setFlexGrow(1);
        setItems(events);
        setAllRowsVisible(true);
        addThemeVariants(GridVariant.ROW_STRIPES, GridVariant.WRAP_CELL_CONTENT);
        setEmptyStateText("This operation has no events in the outbox.");
    }
}

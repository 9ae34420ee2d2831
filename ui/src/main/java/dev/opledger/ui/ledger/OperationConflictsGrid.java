package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import dev.opledger.claim.ConflictRecord;
import dev.opledger.ui.Formats;
import java.util.List;

/** The refused reuses of one operation's key, newest first, with both payload hashes in full. */
class OperationConflictsGrid extends Grid<ConflictRecord> {

    OperationConflictsGrid(List<ConflictRecord> conflicts) {
        setId("operation-conflicts-grid");
        addColumn(conflict -> Formats.instant(conflict.detectedAt())).setHeader("Detected").setAutoWidth(true);
        addColumn(conflict -> conflict.storedHash().hex()).setHeader("Stored hash").setAutoWidth(true);
        addColumn(conflict -> conflict.offeredHash().hex()).setHeader("Offered hash").setAutoWidth(true);
        addColumn(ConflictRecord::offeredType).setHeader("Offered type").setAutoWidth(true);
        addColumn(conflict -> Formats.orDash(conflict.userAgent())).setHeader("User agent");
        addColumn(conflict -> Formats.orDash(conflict.clientAddress())).setHeader("Client address").setAutoWidth(true);
        setItems(conflicts);
        setAllRowsVisible(true);
        setEmptyStateText("This operationId was never reused with another payload.");
    }
}

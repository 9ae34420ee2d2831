package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import dev.opledger.claim.AttemptRecord;
import dev.opledger.ui.Formats;
import java.util.List;

/** The accepted attempts of one operation, oldest first (the first one claimed it). */
class AttemptsGrid extends Grid<AttemptRecord> {

    AttemptsGrid(List<AttemptRecord> attempts) {
        setId("attempts-grid");
        addColumn(AttemptRecord::outcome).setHeader("Outcome").setAutoWidth(true);
        addColumn(attempt -> Formats.instant(attempt.receivedAt())).setHeader("Received").setAutoWidth(true);
        addColumn(attempt -> attempt.requestId().toString()).setHeader("Request ID").setAutoWidth(true);
        addColumn(attempt -> Formats.orDash(attempt.userAgent())).setHeader("User agent");
        addColumn(attempt -> Formats.orDash(attempt.clientAddress())).setHeader("Client address").setAutoWidth(true);
        setItems(attempts);
        setAllRowsVisible(true);
        setEmptyStateText("No attempts recorded.");
    }
}

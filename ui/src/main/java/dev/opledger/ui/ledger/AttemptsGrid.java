package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import dev.opledger.claim.AttemptRecord;
import dev.opledger.ui.Formats;
import java.util.List;

/**
 * The accepted attempts of one operation, oldest first (the first one claimed it), with the App
 * Attest key and counter of each attempt's assertion (a dash for an attempt without one).
 */
class AttemptsGrid extends Grid<AttemptRecord> {

    AttemptsGrid(List<AttemptRecord> attempts) {
        setId("attempts-grid");
        addColumn(AttemptRecord::outcome).setHeader("Outcome").setAutoWidth(true);
        // REST (an app on a device) or MCP (an agent, never App Attest)
        addColumn(attempt -> attempt.channel().name()).setHeader("Channel").setAutoWidth(true);
        addColumn(attempt -> Formats.instant(attempt.receivedAt())).setHeader("Received").setAutoWidth(true);
        addColumn(attempt -> attempt.requestId().toString()).setHeader("Request ID").setAutoWidth(true);
        addColumn(attempt -> Formats.orDash(attempt.userAgent())).setHeader("User agent");
        addColumn(attempt -> Formats.orDash(attempt.clientAddress())).setHeader("Client address").setAutoWidth(true);
        addColumn(attempt -> attempt.attestKeyId() == null ? "—" : Formats.shortId(attempt.attestKeyId()))
                .setHeader("App Attest key").setTooltipGenerator(attempt -> Formats.orDash(attempt.attestKeyId()))
                .setAutoWidth(true);
        addColumn(attempt -> attempt.assertionCounter() == null ? "—" : attempt.assertionCounter().toString())
                .setHeader("Counter").setAutoWidth(true);
        setItems(attempts);
        setAllRowsVisible(true);
        setEmptyStateText("No attempts recorded.");
    }
}

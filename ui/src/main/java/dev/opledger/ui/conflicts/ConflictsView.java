package dev.opledger.ui.conflicts;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import dev.opledger.claim.ConflictRecord;
import dev.opledger.claim.LedgerService;
import dev.opledger.ui.ConsoleRoles;
import dev.opledger.ui.Formats;
import dev.opledger.ui.MainLayout;
import dev.opledger.ui.PagedFetch;
import dev.opledger.ui.ledger.OperationLink;
import jakarta.annotation.security.RolesAllowed;

/**
 * Every request refused because it reused an operationId with another payload, newest first,
 * paged lazily without a count; each links to its operation.
 */
@Route(value = MainLayout.CONFLICTS_PATH, layout = MainLayout.class)
@PageTitle("Conflicts · opledger console")
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
class ConflictsView extends VerticalLayout {

    ConflictsView(LedgerService ledger) {
        var grid = new Grid<ConflictRecord>();
        grid.setId("conflicts-grid");
        grid.addColumn(conflict -> Formats.instant(conflict.detectedAt())).setHeader("Detected").setAutoWidth(true);
        grid.addComponentColumn(conflict -> OperationLink.to(conflict.subject(), conflict.operationId()))
                .setHeader("Operation ID").setAutoWidth(true);
        grid.addColumn(conflict -> conflict.subject().value()).setHeader("Subject").setAutoWidth(true);
        grid.addColumn(ConflictRecord::offeredType).setHeader("Offered type").setAutoWidth(true);
        grid.addColumn(conflict -> Formats.shortHash(conflict.storedHash().hex())).setHeader("Stored hash")
                .setTooltipGenerator(conflict -> conflict.storedHash().hex()).setAutoWidth(true);
        grid.addColumn(conflict -> Formats.shortHash(conflict.offeredHash().hex())).setHeader("Offered hash")
                .setTooltipGenerator(conflict -> conflict.offeredHash().hex()).setAutoWidth(true);
        grid.addColumn(conflict -> Formats.orDash(conflict.userAgent())).setHeader("User agent");
        grid.addColumn(conflict -> Formats.orDash(conflict.clientAddress())).setHeader("Client address")
                .setAutoWidth(true);
        grid.addThemeVariants(GridVariant.ROW_STRIPES);
        grid.setEmptyStateText("No key-reuse conflicts have been recorded.");
        grid.setItems(query -> PagedFetch.rows(query.getOffset(), query.getLimit(), LedgerService.MAX_PAGE_SIZE,
                ledger::conflicts));
        grid.setSizeFull();

        add(new H2("Key-reuse conflicts"),
                new Paragraph("Requests refused with 422 because they reused an operationId with a different "
                        + "payload. The operation itself was not changed."),
                grid);
        setSizeFull();
    }
}

package dev.opledger.ui.ledger;

import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouteAlias;
import dev.opledger.claim.LedgerFilter;
import dev.opledger.claim.LedgerService;
import dev.opledger.claim.OperationState;
import dev.opledger.ui.ConsoleRoles;
import dev.opledger.ui.Formats;
import dev.opledger.ui.MainLayout;
import dev.opledger.ui.PagedFetch;
import jakarta.annotation.security.RolesAllowed;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The operation ledger, newest first. The grid pages lazily through {@link LedgerService} without
 * a count, so it stays fast over millions of operations; a click opens the operation.
 */
@Route(value = MainLayout.LEDGER_PATH, layout = MainLayout.class)
@RouteAlias(value = "", layout = MainLayout.class)
@PageTitle("Ledger · opledger console")
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
class LedgerView extends VerticalLayout {

    private final LedgerService ledger;
    private final Grid<OperationState> grid = new Grid<>();
    /** Empty while a filter entry is malformed: the grid then shows nothing rather than a stale list. */
    private Optional<LedgerFilter> filter = Optional.of(LedgerFilter.none());

    LedgerView(LedgerService ledger) {
        this.ledger = ledger;
        grid.setId("ledger-grid");
        grid.addColumn(operation -> operation.operationId().toString()).setHeader("Operation ID").setAutoWidth(true)
                .setFlexGrow(0);
        grid.addColumn(operation -> operation.subject().value()).setHeader("Subject").setAutoWidth(true);
        grid.addColumn(OperationState::type).setHeader("Type").setAutoWidth(true);
        grid.addColumn(operation -> operation.status().name()).setHeader("Status").setAutoWidth(true);
        grid.addColumn(operation -> Formats.instant(operation.createdAt())).setHeader("Created").setAutoWidth(true);
        grid.addColumn(operation -> Formats.instant(operation.updatedAt())).setHeader("Updated").setAutoWidth(true);
        grid.addThemeVariants(GridVariant.ROW_STRIPES);
        grid.setEmptyStateText("No operations match these filters.");
        grid.setItems(query -> page(query.getOffset(), query.getLimit()));
        grid.addItemClickListener(click -> OperationLink.open(click.getItem().subject(), click.getItem().operationId()));
        grid.setSizeFull();

        var filters = new LedgerFilterBar(changed -> {
            filter = changed;
            grid.getDataProvider().refreshAll();
        });
        add(new H2("Ledger"), filters, grid);
        setSizeFull();
    }

    private Stream<OperationState> page(int offset, int limit) {
        return filter.map(current -> PagedFetch.rows(offset, limit, LedgerService.MAX_PAGE_SIZE,
                        (from, size) -> ledger.operations(current, from, size)))
                .orElseGet(Stream::empty);
    }
}

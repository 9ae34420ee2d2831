package dev.opledger.ui.ledger;

import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Pre;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouterLink;
import dev.opledger.claim.LedgerService;
import dev.opledger.claim.OperationDetail;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.ui.ConsoleRoles;
import dev.opledger.ui.MainLayout;
import jakarta.annotation.security.RolesAllowed;
import java.util.List;
import java.util.Optional;

/**
 * One operation: its state, the canonical command its payload hash covers, every accepted attempt
 * and every refused reuse of its key. Opened as {@code operations/<operationId>?subject=<subject>}.
 */
@Route(value = "operations/:" + OperationView.OPERATION_ID, layout = MainLayout.class)
@PageTitle("Operation · opledger console")
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
class OperationView extends VerticalLayout implements BeforeEnterObserver {

    static final String OPERATION_ID = "operationId";
    static final String SUBJECT = "subject";

    private final LedgerService ledger;

    OperationView(LedgerService ledger) {
        this.ledger = ledger;
        setId("operation-view");
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        removeAll();
        add(new RouterLink("← Ledger", LedgerView.class));
        Optional<OperationId> operationId = event.getRouteParameters().get(OPERATION_ID).flatMap(OperationView::operationId);
        Optional<SubjectId> subject = subject(event.getLocation().getQueryParameters().getParameters()
                .getOrDefault(SUBJECT, List.of()));
        if (operationId.isEmpty() || subject.isEmpty()) {
            notFound("This link does not name an operation: it needs an operationId (a UUID) and ?subject=….");
            return;
        }
        ledger.operation(subject.get(), operationId.get()).ifPresentOrElse(this::show,
                () -> notFound("There is no operation " + operationId.get() + " for subject " + subject.get() + "."));
    }

    private void show(OperationDetail detail) {
        var command = new Pre(detail.command());
        command.setId("detail-command");
        command.getStyle().set("white-space", "pre-wrap").set("word-break", "break-all");
        add(new H2("Operation " + detail.operation().operationId()),
                new OperationSummary(detail),
                new H3("Command (canonical JSON, as hashed)"), command,
                new H3("Attempts (" + detail.attempts().size() + ")"), new AttemptsGrid(detail.attempts()),
                new H3("Key-reuse conflicts (" + detail.conflicts().size() + ")"),
                new OperationConflictsGrid(detail.conflicts()));
    }

    private void notFound(String message) {
        var text = new Paragraph(message);
        text.setId("operation-not-found");
        add(new H2("Operation not found"), text);
    }

    private static Optional<OperationId> operationId(String text) {
        try {
            return Optional.of(OperationId.parse(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<SubjectId> subject(List<String> values) {
        if (values.size() != 1) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SubjectId(values.getFirst()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}

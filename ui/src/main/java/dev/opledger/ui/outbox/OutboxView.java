package dev.opledger.ui.outbox;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.DescriptionList;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import dev.opledger.outbox.OutboxOverview;
import dev.opledger.outbox.OutboxService;
import dev.opledger.ui.ConsoleRoles;
import dev.opledger.ui.Formats;
import dev.opledger.ui.MainLayout;
import jakarta.annotation.security.RolesAllowed;

/**
 * How the events keep up: the outbox's backlog and the age of its oldest row (the relay lag), the
 * publish rate, and which node holds the relay. Read when opened and on Refresh; each value has
 * an id {@code outbox-<figure>}.
 */
@Route(value = MainLayout.OUTBOX_PATH, layout = MainLayout.class)
@PageTitle("Outbox · opledger console")
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
class OutboxView extends VerticalLayout implements BeforeEnterObserver {

    private final OutboxService outbox;
    private final DescriptionList figures = new DescriptionList();

    OutboxView(OutboxService outbox) {
        this.outbox = outbox;
        setId("outbox-view");
        var refresh = new Button("Refresh", click -> load());
        refresh.setId("refresh-outbox");
        refresh.addThemeVariants(ButtonVariant.TERTIARY);
        var title = new HorizontalLayout(new H2("Outbox"), refresh);
        title.setAlignItems(FlexComponent.Alignment.BASELINE);
        figures.setId("outbox-figures");
        figures.getStyle().set("display", "grid").set("grid-template-columns", "max-content 1fr").set("gap", "0.25rem 1rem");
        add(title, new Paragraph("Every state change of an operation is an outbox row, written with the change; the "
                + "one elected relay publishes the rows to Kafka. A growing backlog or lag means the relay is behind, "
                + "stopped, or cannot reach Kafka."), figures);
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        load();
    }

    private void load() {
        OutboxOverview overview = outbox.overview();
        figures.removeAll();
        figure("Backlog (not yet published)", "backlog", Long.toString(overview.backlog()));
        figure("Relay lag", "lag", OutboxText.lag(overview));
        figure("Published in the last minute", "published-last-minute", Long.toString(overview.publishedLastMinute()));
        figure("Last published", "last-published", OutboxText.lastPublished(overview));
        figure("Relay holder", "relay-holder", OutboxText.holder(overview));
        figure("Relay election", "relay-lease", OutboxText.lease(overview));
        figure("Events on this node", "local-relay", OutboxText.local(overview));
        figure("Read at", "read-at", Formats.instant(overview.at()));
    }

    private void figure(String term, String id, String value) {
        var text = new Span(value);
        text.setId("outbox-" + id);
        var description = new DescriptionList.Description(text);
        description.getStyle().set("margin", "0").set("font-family", "monospace");
        figures.add(new DescriptionList.Term(term), description);
    }
}

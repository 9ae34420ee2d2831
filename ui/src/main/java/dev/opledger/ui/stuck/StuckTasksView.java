package dev.opledger.ui.stuck;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.DetachEvent;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.shared.Registration;
import dev.opledger.claim.CancelOutcome;
import dev.opledger.claim.CancelService;
import dev.opledger.stuck.RecentCancel;
import dev.opledger.stuck.StuckTask;
import dev.opledger.stuck.StuckTaskService;
import dev.opledger.ui.ConsoleRoles;
import dev.opledger.ui.Formats;
import dev.opledger.ui.MainLayout;
import dev.opledger.ui.PagedFetch;
import dev.opledger.ui.ledger.DecisionDialog;
import dev.opledger.ui.ledger.OperationLink;
import jakarta.annotation.security.RolesAllowed;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Tasks that should have ended by now: agents' MCP tasks whose operation has not ended (inbound)
 * and tool calls in flight (outbound), each once older than its tool's threshold, oldest first;
 * and the newest cancels. Support staff cancel from here; each cancel's state (requested →
 * acknowledged → stopped, effect committed anyway, needs review) shows as it arrives, because the
 * view reads again every {@link #POLL_MILLIS} ms while it is open: a UI poll, not server push,
 * since a person watching a stuck task needs seconds, not milliseconds, and a poll needs no
 * long-lived connection through the console's security filters.
 */
@Route(value = MainLayout.STUCK_TASKS_PATH, layout = MainLayout.class)
@PageTitle("Stuck tasks · opledger console")
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
class StuckTasksView extends VerticalLayout {

    static final int POLL_MILLIS = 2000;
    static final int RECENT_CANCELS = 20;
    private static final int NOTIFICATION_MILLIS = 8000;

    private final StuckTaskService stuck;
    private final CancelService cancels;
    private final Grid<StuckTask> inbound;
    private final Grid<StuckTask> outbound;
    private final Grid<RecentCancel> recent = new Grid<>();
    private final Span readAt = new Span();
    private @Nullable Registration polling;

    StuckTasksView(StuckTaskService stuck, CancelService cancels) {
        this.stuck = stuck;
        this.cancels = cancels;
        setId("stuck-tasks-view");
        setSizeFull();

        var refresh = new Button("Refresh", click -> load());
        refresh.setId("refresh-stuck-tasks");
        refresh.addThemeVariants(ButtonVariant.TERTIARY);
        var title = new HorizontalLayout(new H2("Stuck tasks"), refresh);
        title.setAlignItems(FlexComponent.Alignment.BASELINE);
        readAt.setId("stuck-tasks-read-at");
        var thresholds = new Span(StuckTaskText.thresholds(stuck.thresholds()));
        thresholds.setId("stuck-tasks-thresholds");

        inbound = tasks("inbound-grid", "No agent's MCP task is past its threshold.");
        inbound.setItems(query -> PagedFetch.rows(query.getOffset(), query.getLimit(), StuckTaskService.MAX_PAGE_SIZE,
                stuck::inbound));
        outbound = tasks("outbound-grid", "No tool call is in flight past its threshold.");
        outbound.setItems(query -> PagedFetch.rows(query.getOffset(), query.getLimit(), StuckTaskService.MAX_PAGE_SIZE,
                stuck::outbound));

        recent.setId("cancels-grid");
        recent.addComponentColumn(cancel -> OperationLink.to(cancel.subject(), cancel.operationId()))
                .setHeader("Operation ID").setAutoWidth(true);
        recent.addColumn(RecentCancel::operationType).setHeader("Type").setAutoWidth(true);
        recent.addColumn(cancel -> StuckTaskText.requested(cancel.cancel())).setHeader("Requested").setAutoWidth(true);
        recent.addColumn(cancel -> StuckTaskText.state(cancel.cancel())).setHeader("Cancel").setAutoWidth(true);
        recent.addColumn(cancel -> cancel.status().name()).setHeader("Status now").setAutoWidth(true);
        recent.addThemeVariants(GridVariant.ROW_STRIPES);
        recent.setEmptyStateText("No cancel has been asked for.");
        recent.setAllRowsVisible(true);

        var explained = new Paragraph("A task is listed once it is older than its tool's threshold (the operation "
                + "type for an agent's task, the downstream tool for a call in flight): ");
        explained.add(thresholds, new Span(". "), readAt);
        add(title, explained,
                new H3("Inbound: agents' MCP tasks whose operation has not ended"), inbound,
                new H3("Outbound: tool calls in flight"), outbound,
                new H3("Recent cancels (newest " + RECENT_CANCELS + ")"), recent);
    }

    private Grid<StuckTask> tasks(String id, String empty) {
        var grid = new Grid<StuckTask>();
        grid.setId(id);
        grid.addComponentColumn(task -> OperationLink.to(task.subject(), task.operationId()))
                .setHeader("Operation ID").setAutoWidth(true);
        grid.addColumn(StuckTask::tool).setHeader("Tool").setAutoWidth(true);
        // an agent's task id is 43 random characters, a call's handle is short and all of it tells
        grid.addColumn(task -> task.direction() == StuckTask.Direction.INBOUND ? Formats.shortId(task.handle())
                        : task.handle()).setHeader("Handle")
                .setTooltipGenerator(StuckTask::handle).setAutoWidth(true);
        grid.addColumn(StuckTaskText::age).setHeader("Age").setAutoWidth(true);
        grid.addColumn(task -> task.status().name()).setHeader("Last status")
                .setTooltipGenerator(task -> "since " + Formats.instant(task.statusSince())).setAutoWidth(true);
        grid.addColumn(StuckTaskText::holder).setHeader("Node").setAutoWidth(true);
        grid.addColumn(task -> StuckTaskText.state(task.cancel())).setHeader("Cancel")
                .setTooltipGenerator(task -> task.cancel() == null ? null : StuckTaskText.requested(task.cancel()))
                .setAutoWidth(true);
        grid.addComponentColumn(this::cancelButton).setHeader("").setAutoWidth(true);
        grid.addThemeVariants(GridVariant.ROW_STRIPES);
        grid.setEmptyStateText(empty);
        grid.setHeight("16rem");
        return grid;
    }

    private Button cancelButton(StuckTask task) {
        var button = new Button("Cancel…", click -> new DecisionDialog(DecisionDialog.cancellation(task.operationId()),
                reason -> {
            CancelOutcome outcome = cancels.cancelAsStaff(task.operationId(), reason);
            var notification = Notification.show(StuckTaskText.answer(outcome), NOTIFICATION_MILLIS,
                    Notification.Position.TOP_CENTER);
            notification.setId("cancel-notification");
            notification.addThemeVariants(outcome instanceof CancelOutcome.Pending
                    || outcome instanceof CancelOutcome.Resolved ? NotificationVariant.SUCCESS : NotificationVariant.WARNING);
            load();
        }).open());
        button.addThemeVariants(ButtonVariant.SMALL, ButtonVariant.ERROR);
        // a cancel already asked for is there to watch, not to ask again
        button.setEnabled(task.cancel() == null);
        return button;
    }

    private void load() {
        inbound.getDataProvider().refreshAll();
        outbound.getDataProvider().refreshAll();
        recent.setItems(stuck.recentCancels(RECENT_CANCELS));
        readAt.setText("Read at " + Formats.instant(Instant.now()) + ", and again every " + POLL_MILLIS / 1000
                + " s while this view is open.");
    }

    @Override
    protected void onAttach(AttachEvent event) {
        super.onAttach(event);
        load();
        event.getUI().setPollInterval(POLL_MILLIS);
        polling = event.getUI().addPollListener(poll -> load());
    }

    @Override
    protected void onDetach(DetachEvent event) {
        if (polling != null) {
            polling.remove();
            polling = null;
        }
        event.getUI().setPollInterval(-1);
        super.onDetach(event);
    }
}

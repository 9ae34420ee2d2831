package dev.opledger.ui.tools;

import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.spring.security.AuthenticationContext;
import dev.opledger.classification.ChangeResolution;
import dev.opledger.classification.RegisteredServer;
import dev.opledger.classification.RegisteredTool;
import dev.opledger.classification.RepeatClass;
import dev.opledger.classification.ToolChange;
import dev.opledger.classification.ToolProbe;
import dev.opledger.classification.ToolRegistryService;
import dev.opledger.mcp.ToolRef;
import dev.opledger.ui.ConsoleRoles;
import dev.opledger.ui.Formats;
import dev.opledger.ui.MainLayout;
import jakarta.annotation.security.RolesAllowed;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The tool registry: every configured server, every tool with its repeat class, where that came
 * from, its annotations, retry policy and check, and the changes its server made that wait for a
 * person, and each tool's last double-run probe with its evidence. ADMIN edits a class or policy,
 * accepts or rejects a change, runs a probe on a tool of a sandboxed server and accepts or rejects
 * its suggestion, each with a reason (the façade refuses anyone else, whatever the page shows);
 * SUPPORT sees the same without the buttons.
 */
@Route(value = MainLayout.TOOLS_PATH, layout = MainLayout.class)
@PageTitle("Tools · opledger console")
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
class ToolsView extends VerticalLayout implements BeforeEnterObserver {

    private final ToolRegistryService registry;
    private final boolean admin;
    private final Grid<RegisteredServer> servers = new Grid<>();
    private final Grid<RegisteredTool> tools = new Grid<>();
    private final Grid<ToolChange> changes = new Grid<>();
    private Map<ToolRef, ToolProbe> lastProbes = Map.of();

    ToolsView(ToolRegistryService registry, AuthenticationContext authentication) {
        this.registry = registry;
        this.admin = authentication.hasRole(ConsoleRoles.ADMIN);
        setId("tools-view");
        var refresh = new Button("Refresh", click -> load());
        refresh.setId("refresh-tools");
        refresh.addThemeVariants(ButtonVariant.TERTIARY);
        var title = new HorizontalLayout(new H2("Tools"), refresh);
        title.setAlignItems(FlexComponent.Alignment.BASELINE);

        servers.setId("servers-grid");
        servers.addColumn(RegisteredServer::name).setHeader("Server").setKey("name").setAutoWidth(true);
        servers.addColumn(RegisteredServer::transport).setHeader("Transport").setAutoWidth(true);
        servers.addColumn(RegisteredServer::location).setHeader("Location").setAutoWidth(true);
        servers.addColumn(server -> server.discoveredAt() == null ? "never" : Formats.instant(server.discoveredAt()))
                .setHeader("Discovered").setAutoWidth(true);
        servers.addColumn(server -> Formats.orDash(server.discoveryError())).setHeader("Discovery error");
        servers.addColumn(RegisteredServer::tools).setHeader("Tools").setAutoWidth(true);
        servers.addColumn(RegisteredServer::openChanges).setHeader("Open changes").setAutoWidth(true);
        servers.setAllRowsVisible(true);

        tools.setId("tools-grid");
        tools.addColumn(tool -> tool.toolClass().server()).setHeader("Server").setKey("server").setAutoWidth(true);
        tools.addColumn(tool -> tool.toolClass().tool()).setHeader("Tool").setKey("tool").setAutoWidth(true);
        tools.addColumn(tool -> tool.toolClass().repeatClass().name()).setHeader("Class").setKey("class").setAutoWidth(true);
        tools.addColumn(tool -> tool.toolClass().source().name()).setHeader("Source").setKey("source").setAutoWidth(true);
        tools.addColumn(tool -> ToolText.annotations(tool.hints())).setHeader("Annotations").setAutoWidth(true);
        tools.addColumn(tool -> ToolRegistryService.describe(tool.toolClass().retry())).setHeader("Retry policy")
                .setKey("retry").setAutoWidth(true);
        tools.addColumn(ToolText::check).setHeader("Check").setAutoWidth(true);
        tools.addColumn(tool -> Formats.orDash(tool.toolClass().reason())).setHeader("Reason").setKey("reason");
        tools.addColumn(ToolText::flagged).setHeader("Flagged changes").setAutoWidth(true);
        tools.addComponentColumn(this::lastProbe).setHeader("Last probe").setKey("probe").setAutoWidth(true);
        if (admin) {
            tools.addComponentColumn(tool -> {
                String id = tool.toolClass().server() + "-" + tool.toolClass().tool();
                var edit = new Button("Edit", click -> askToEdit(tool));
                edit.setId("edit-" + id);
                edit.addThemeVariants(ButtonVariant.SMALL);
                var actions = new HorizontalLayout(edit);
                if (registry.sandboxed(tool.toolClass().server()) && tool.toolClass().repeatClass() != RepeatClass.READ) {
                    var probe = new Button("Run probe", click -> askToProbe(tool));
                    probe.setId("probe-" + id);
                    probe.addThemeVariants(ButtonVariant.SMALL);
                    actions.add(probe);
                }
                return actions;
            }).setHeader("").setKey("edit").setAutoWidth(true);
        }
        tools.setAllRowsVisible(true);

        changes.setId("tool-changes-grid");
        changes.addColumn(change -> change.server() + "/" + change.tool()).setHeader("Tool").setAutoWidth(true);
        changes.addColumn(change -> change.kind().name()).setHeader("Kind").setAutoWidth(true);
        changes.addColumn(ToolText::change).setHeader("Change");
        changes.addColumn(change -> Formats.instant(change.firstSeenAt())).setHeader("First seen").setAutoWidth(true);
        if (admin) {
            changes.addComponentColumn(change -> {
                var accept = new Button("Accept", click -> askToResolve(change, true));
                accept.setId("accept-change-" + change.id());
                accept.addThemeVariants(ButtonVariant.SMALL);
                var reject = new Button("Reject", click -> askToResolve(change, false));
                reject.setId("reject-change-" + change.id());
                reject.addThemeVariants(ButtonVariant.SMALL);
                return new HorizontalLayout(accept, reject);
            }).setHeader("").setAutoWidth(true);
        }
        changes.setAllRowsVisible(true);

        add(title, new Paragraph("Every tool an effect calls, with its repeat class (what a retry or resume may do) "
                        + "and the retry policy that goes with it. MCP annotations are only a server's hints; a change a "
                        + "server makes to a classified tool waits below for a person and is not applied until accepted."
                        + (admin ? "" : " Only an admin changes classes and decides on changes.")),
                new H3("Servers"), servers, new H3("Tools"), tools, new H3("Flagged changes"), changes);
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        load();
    }

    private void load() {
        lastProbes = registry.lastProbes().stream().collect(Collectors.toMap(
                probe -> new ToolRef(probe.server(), probe.tool()), probe -> probe));
        servers.setItems(registry.servers());
        List<RegisteredTool> all = registry.tools();
        tools.setItems(all);
        changes.setItems(all.stream().flatMap(tool -> tool.openChanges().stream()).toList());
    }

    private void askToEdit(RegisteredTool tool) {
        new ToolEditDialog(tool, edit -> registry.edit(tool.toolClass().server(), tool.toolClass().tool(),
                edit.readVersion(), edit.repeatClass(), edit.check(), edit.retry(), edit.reason()), this::load).open();
    }

    /** The tool's last probe in a line, and a button to see it with its evidence (and, for an admin, decide). */
    private Component lastProbe(RegisteredTool tool) {
        ToolProbe probe = lastProbes.get(new ToolRef(tool.toolClass().server(), tool.toolClass().tool()));
        if (probe == null) {
            return new Span("never");
        }
        var line = new Span(ToolText.probe(probe));
        var details = new Button("Details", click -> show(probe, tool.toolClass().version()));
        details.setId("probe-details-" + tool.toolClass().server() + "-" + tool.toolClass().tool());
        details.addThemeVariants(ButtonVariant.SMALL, ButtonVariant.TERTIARY);
        var cell = new HorizontalLayout(line, details);
        cell.setAlignItems(FlexComponent.Alignment.BASELINE);
        return cell;
    }

    private void askToProbe(RegisteredTool tool) {
        new RunProbeDialog(tool, request -> registry.probe(tool.toolClass().server(), tool.toolClass().tool(), request),
                probe -> {
                    load();
                    show(probe, tool.toolClass().version());
                }).open();
    }

    /** @param readVersion the tool's version as this view shows it: an accept on a stale view changes nothing */
    private void show(ToolProbe probe, long readVersion) {
        new ProbeDialog(probe, admin ? decision -> registry.decideProbe(probe.id(), decision.accept(), readVersion,
                decision.reason()) : null, () -> {
                    Notification.show("Suggestion " + (probe.suggested() == null ? "" : probe.suggested().name() + " ")
                            + "decided.");
                    load();
                }).open();
    }

    private void askToResolve(ToolChange change, boolean accept) {
        new ResolveDialog(change, accept, reason -> {
            String told = switch (registry.resolve(change.id(), accept, reason)) {
                case ChangeResolution.Resolved resolved -> "Change " + (accept ? "accepted" : "rejected") + ".";
                case ChangeResolution.AlreadyResolved already -> "Someone decided first: the change is "
                        + already.status().name().toLowerCase() + ".";
                case ChangeResolution.NotFound missing -> "No such change any more.";
            };
            Notification.show(told);
            load();
        }).open();
    }
}

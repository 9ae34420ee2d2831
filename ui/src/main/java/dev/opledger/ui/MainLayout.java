package dev.opledger.ui;

import com.vaadin.flow.component.applayout.AppLayout;
import com.vaadin.flow.component.applayout.DrawerToggle;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.sidenav.SideNav;
import com.vaadin.flow.component.sidenav.SideNavItem;
import com.vaadin.flow.spring.security.AuthenticationContext;
import jakarta.annotation.security.RolesAllowed;

/** The console's frame: the views in a side navigation, who is signed in, and signing out. */
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
public class MainLayout extends AppLayout {

    /** The ledger view's path, the console's home. */
    public static final String LEDGER_PATH = "ledger";
    /** The conflicts view's path. */
    public static final String CONFLICTS_PATH = "conflicts";
    /** The devices view's path. */
    public static final String DEVICES_PATH = "devices";
    /** The outbox view's path. */
    public static final String OUTBOX_PATH = "outbox";
    /** The tools view's path. */
    public static final String TOOLS_PATH = "tools";
    /** The stuck tasks view's path. */
    public static final String STUCK_TASKS_PATH = "stuck-tasks";

    MainLayout(AuthenticationContext authentication) {
        var title = new H1("opledger console");
        title.getStyle().set("font-size", "1.125rem").set("margin", "0");

        var user = new Span(authentication.getPrincipalName().orElse(""));
        user.setId("signed-in-user");
        var signOut = new Button("Sign out", click -> authentication.logout());
        signOut.setId("sign-out");

        var bar = new HorizontalLayout(title, user, signOut);
        bar.setWidthFull();
        bar.setAlignItems(FlexComponent.Alignment.CENTER);
        bar.expand(title);
        bar.getStyle().set("padding-inline-end", "1rem");
        addToNavbar(new DrawerToggle(), bar);

        var nav = new SideNav();
        nav.setId("console-nav");
        nav.addItem(new SideNavItem("Ledger", LEDGER_PATH), new SideNavItem("Conflicts", CONFLICTS_PATH),
                new SideNavItem("Devices", DEVICES_PATH), new SideNavItem("Outbox", OUTBOX_PATH),
                new SideNavItem("Tools", TOOLS_PATH), new SideNavItem("Stuck tasks", STUCK_TASKS_PATH));
        addToDrawer(nav);
    }
}

package dev.opledger.ui.devices;

import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.provider.CallbackDataProvider;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.spring.security.AuthenticationContext;
import dev.opledger.attest.AttestService;
import dev.opledger.attest.DeviceKey;
import dev.opledger.ui.ConsoleRoles;
import dev.opledger.ui.MainLayout;
import dev.opledger.ui.PagedFetch;
import jakarta.annotation.security.RolesAllowed;
import java.util.stream.Stream;

/**
 * The App Attest keys registered to subjects, newest registration first, paged lazily through
 * {@link AttestService} without a count and filtered by subject. Admins can revoke a key; support
 * staff see no such action, and {@link AttestService#revoke} refuses them all the same.
 */
@Route(value = MainLayout.DEVICES_PATH, layout = MainLayout.class)
@PageTitle("Devices · opledger console")
@RolesAllowed({ConsoleRoles.SUPPORT, ConsoleRoles.ADMIN})
class DevicesView extends VerticalLayout {

    /** Rows per call on the façade, whose {@code devices} names no maximum of its own. */
    static final int PAGE_SIZE = 100;

    private final AttestService attest;
    private final DevicesGrid grid;
    private final TextField subject = new TextField("Subject");
    /** Invalid while the subject filter is malformed: the grid then shows nothing rather than a stale list. */
    private DeviceSearch.Parsed search = new DeviceSearch.Valid(null);

    DevicesView(AttestService attest, AuthenticationContext authentication) {
        this.attest = attest;
        boolean admin = authentication.hasRole(ConsoleRoles.ADMIN);
        grid = new DevicesGrid(admin ? this::askToRevoke : null);
        // identified by keyId, so a revoked key's new record replaces its row (refreshItem)
        grid.setItems(new CallbackDataProvider<DeviceKey, Void>(query -> page(query.getOffset(), query.getLimit()),
                query -> {
                    throw new UnsupportedOperationException("the devices grid pages without a count");
                }, DeviceKey::keyId)).setItemCountUnknown();
        grid.setSizeFull();

        subject.setId("filter-device-subject");
        subject.setPlaceholder("exact subject");
        subject.setClearButtonVisible(true);
        subject.addValueChangeListener(change -> filter());

        add(new H2("Devices"),
                new Paragraph("App Attest keys registered by the iPhone app. An attempt signed with a revoked key "
                        + "is refused."),
                subject, grid);
        setSizeFull();
    }

    private void filter() {
        search = new DeviceSearch(subject.getValue()).parse();
        if (search instanceof DeviceSearch.Invalid invalid) {
            subject.setErrorMessage(invalid.subjectError());
            subject.setInvalid(true);
        } else {
            subject.setInvalid(false);
        }
        grid.getDataProvider().refreshAll();
    }

    private Stream<DeviceKey> page(int offset, int limit) {
        return switch (search) {
            case DeviceSearch.Valid valid -> PagedFetch.rows(offset, limit, PAGE_SIZE,
                    (from, size) -> attest.devices(valid.subject(), from, size));
            case DeviceSearch.Invalid invalid -> Stream.empty();
        };
    }

    private void askToRevoke(DeviceKey key) {
        new RevokeDialog(key, reason -> new Revocation(attest, PAGE_SIZE).revoke(key, reason)
                .ifPresentOrElse(grid.getDataProvider()::refreshItem, grid.getDataProvider()::refreshAll)).open();
    }
}

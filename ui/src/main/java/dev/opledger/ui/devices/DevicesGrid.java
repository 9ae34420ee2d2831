package dev.opledger.ui.devices;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.data.renderer.ComponentRenderer;
import dev.opledger.attest.DeviceKey;
import dev.opledger.ui.Formats;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Device keys, one per row. The keyId is abbreviated in its column, whole in the tooltip and in
 * the row's details (a click opens them, to copy it). With a {@code revoke} action, each key that
 * is still active gets a "Revoke" button; without one (support staff) there is no such column.
 */
class DevicesGrid extends Grid<DeviceKey> {

    static final String REVOKE_BUTTON_CLASS = "revoke-device";

    DevicesGrid(@Nullable Consumer<DeviceKey> revoke) {
        setId("devices-grid");
        addComponentColumn(key -> monospace(Formats.shortId(key.keyId()))).setHeader("Key ID")
                .setTooltipGenerator(DeviceKey::keyId).setAutoWidth(true).setFlexGrow(0);
        addColumn(key -> key.subject().value()).setHeader("Subject").setAutoWidth(true);
        // next to the subject and wrapped, so a revocation's who, when and why read whole
        addColumn(DeviceStatus::of).setHeader("Status").setTooltipGenerator(DeviceStatus::of).setWidth("22em")
                .setFlexGrow(1);
        addColumn(key -> key.app().value()).setHeader("App").setAutoWidth(true);
        addColumn(key -> key.environment().name()).setHeader("Environment").setAutoWidth(true);
        addColumn(DeviceKey::counter).setHeader("Counter").setAutoWidth(true);
        addColumn(key -> Formats.instant(key.registeredAt())).setHeader("Registered").setAutoWidth(true);
        addColumn(key -> key.lastUsedAt() == null ? "never" : Formats.instant(key.lastUsedAt()))
                .setHeader("Last used").setAutoWidth(true);
        if (revoke != null) {
            addComponentColumn(key -> key.revoked() ? new Span() : revokeButton(key, revoke))
                    .setHeader("Action").setAutoWidth(true).setFlexGrow(0);
        }
        setItemDetailsRenderer(new ComponentRenderer<>(DevicesGrid::details));
        addThemeVariants(GridVariant.ROW_STRIPES, GridVariant.WRAP_CELL_CONTENT);
        setEmptyStateText("No device keys match this filter.");
    }

    private static Button revokeButton(DeviceKey key, Consumer<DeviceKey> revoke) {
        var button = new Button("Revoke", click -> revoke.accept(key));
        button.addClassName(REVOKE_BUTTON_CLASS);
        button.addThemeVariants(ButtonVariant.ERROR, ButtonVariant.SMALL);
        button.getElement().setAttribute("aria-label", "Revoke key " + key.keyId());
        return button;
    }

    private static Span details(DeviceKey key) {
        var keyId = monospace(key.keyId());
        keyId.addClassName("device-key-id");
        var details = new Span(new Span("Key ID (base64): "), keyId);
        details.getStyle().set("padding", "0.25rem 1rem").set("display", "block");
        return details;
    }

    private static Span monospace(String text) {
        var span = new Span(text);
        span.getStyle().set("font-family", "monospace");
        return span;
    }
}

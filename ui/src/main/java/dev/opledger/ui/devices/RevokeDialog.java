package dev.opledger.ui.devices;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.textfield.TextArea;
import dev.opledger.attest.DeviceKey;
import java.util.function.Consumer;

/**
 * Asks for the reason before a key is revoked, and refuses a blank one (it goes to the audit
 * trail and to the key's status). The dialog closes once {@code revoke} returned; if it throws
 * (refused, database down), the dialog stays open with the reason typed.
 */
class RevokeDialog extends Dialog {

    static final String REASON_REQUIRED = "Give a reason: it is kept with the key and in the audit trail.";
    static final int MAX_REASON_LENGTH = 500;

    private final TextArea reason = new TextArea("Reason");

    RevokeDialog(DeviceKey key, Consumer<String> revoke) {
        setId("revoke-dialog");
        setHeaderTitle("Revoke this device key?");
        setModal(true);
        setCloseOnOutsideClick(false);

        var what = new Paragraph("Key " + key.keyId() + " of subject " + key.subject().value() + " (" + key.app().value()
                + "). Every attempt signed with it is refused from now on; this cannot be undone.");
        what.getStyle().set("word-break", "break-all").set("max-width", "32rem");
        reason.setId("revoke-reason");
        reason.setRequiredIndicatorVisible(true);
        reason.setMaxLength(MAX_REASON_LENGTH);
        reason.setWidthFull();
        reason.setPlaceholder("e.g. device reported lost");
        reason.addValueChangeListener(change -> {
            if (!change.getValue().isBlank()) {
                reason.setInvalid(false);
            }
        });
        add(what, reason);

        var cancel = new Button("Cancel", click -> close());
        cancel.setId("revoke-cancel");
        var confirm = new Button("Revoke", click -> confirm(revoke));
        confirm.setId("revoke-confirm");
        confirm.addThemeVariants(ButtonVariant.PRIMARY, ButtonVariant.ERROR);
        getFooter().add(cancel, confirm);
    }

    private void confirm(Consumer<String> revoke) {
        if (reason.getValue().isBlank()) {
            reason.setErrorMessage(REASON_REQUIRED);
            reason.setInvalid(true);
            reason.focus();
            return;
        }
        revoke.accept(reason.getValue().strip());
        close();
    }
}

package dev.opledger.ui.tools;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.textfield.TextArea;
import dev.opledger.classification.ToolChange;
import dev.opledger.classification.ToolRegistryService;
import java.util.function.Consumer;

/** Asks for the reason before a flagged change is accepted or rejected, and refuses a blank one. */
class ResolveDialog extends Dialog {

    private final TextArea reason = new TextArea("Reason");

    ResolveDialog(ToolChange change, boolean accept, Consumer<String> resolve) {
        setId("tool-resolve-dialog");
        setHeaderTitle((accept ? "Accept" : "Reject") + " this change of " + change.server() + "/" + change.tool() + "?");
        setModal(true);
        setCloseOnOutsideClick(false);
        var what = new Paragraph(change.kind() + ": " + ToolText.change(change) + (accept
                ? ". Accepting applies what the server lists now."
                : ". Rejecting keeps the registry as it is; the same listing is not flagged again."));
        what.getStyle().set("word-break", "break-all").set("max-width", "32rem");
        reason.setId("tool-resolve-reason");
        reason.setRequiredIndicatorVisible(true);
        reason.setMaxLength(ToolRegistryService.MAX_REASON_LENGTH);
        reason.setWidthFull();
        add(what, reason);
        var cancel = new Button("Cancel", click -> close());
        var confirm = new Button(accept ? "Accept" : "Reject", click -> {
            if (reason.getValue().isBlank()) {
                reason.setErrorMessage(ToolEditDialog.REASON_REQUIRED);
                reason.setInvalid(true);
                return;
            }
            resolve.accept(reason.getValue().strip());
            close();
        });
        confirm.setId("tool-resolve-confirm");
        confirm.addThemeVariants(ButtonVariant.PRIMARY);
        getFooter().add(cancel, confirm);
    }
}

package dev.opledger.ui.stuck;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.textfield.TextArea;
import dev.opledger.claim.ApprovalService;
import dev.opledger.operation.OperationId;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Asks before an operation is cancelled, with an optional reason for the audit trail. The confirm
 * button disables itself on the first click, so a double click sends one request (and a repeat
 * that got through anyway gets the first one's answer from the ledger).
 */
class CancelDialog extends Dialog {

    private final TextArea reason;

    CancelDialog(OperationId operationId, Consumer<@Nullable String> cancel) {
        setId("cancel-dialog");
        setHeaderTitle("Cancel this operation?");
        setModal(true);
        setCloseOnOutsideClick(false);

        var what = new Paragraph("Operation " + operationId + " stops at its next step boundary: a tool call in "
                + "flight is not interrupted, and the ledger records whether it landed anyway.");
        what.getStyle().set("max-width", "32rem");
        reason = new TextArea("Reason (optional)");
        reason.setId("cancel-reason");
        reason.setMaxLength(ApprovalService.MAX_REASON_LENGTH);
        reason.setWidthFull();
        reason.setPlaceholder("e.g. the agent's user gave up");
        add(what, reason);

        var dismiss = new Button("Keep it running", click -> close());
        dismiss.setId("cancel-dismiss");
        var confirm = new Button("Cancel operation", click -> {
            String text = reason.getValue().strip();
            cancel.accept(text.isEmpty() ? null : text);
            close();
        });
        confirm.setId("cancel-confirm");
        confirm.setDisableOnClick(true);
        confirm.addThemeVariants(ButtonVariant.PRIMARY, ButtonVariant.ERROR);
        getFooter().add(dismiss, confirm);
    }
}

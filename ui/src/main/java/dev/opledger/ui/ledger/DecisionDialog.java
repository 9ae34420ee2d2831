package dev.opledger.ui.ledger;

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
 * Asks before an operation is approved or rejected: a rejection needs a reason (it goes to the
 * audit trail and ends the operation FAILED), an approval takes an optional note. The dialog
 * closes once {@code decide} returned; if it throws, it stays open with the text typed.
 */
class DecisionDialog extends Dialog {

    static final String REASON_REQUIRED = "Give a reason: it is kept with the decision and in the audit trail.";

    private final TextArea reason;

    DecisionDialog(boolean approve, OperationId operationId, Consumer<@Nullable String> decide) {
        setId("decision-dialog");
        setHeaderTitle(approve ? "Approve this operation?" : "Reject this operation?");
        setModal(true);
        setCloseOnOutsideClick(false);

        var what = new Paragraph("Operation " + operationId + (approve
                ? " goes back to the workers, and its run goes on past the approval."
                : " goes back to the workers, whose run undoes what it did (a checkout releases its reservation) "
                        + "and ends it FAILED."));
        what.getStyle().set("max-width", "32rem");
        reason = new TextArea(approve ? "Note (optional)" : "Reason");
        reason.setId("decision-reason");
        reason.setRequiredIndicatorVisible(!approve);
        reason.setMaxLength(ApprovalService.MAX_REASON_LENGTH);
        reason.setWidthFull();
        reason.setPlaceholder(approve ? "e.g. customer confirmed by phone" : "e.g. card reported stolen");
        reason.addValueChangeListener(change -> {
            if (!change.getValue().isBlank()) {
                reason.setInvalid(false);
            }
        });
        add(what, reason);

        var cancel = new Button("Cancel", click -> close());
        cancel.setId("decision-cancel");
        var confirm = new Button(approve ? "Approve" : "Reject", click -> confirm(approve, decide));
        confirm.setId("decision-confirm");
        confirm.addThemeVariants(ButtonVariant.PRIMARY, approve ? ButtonVariant.SUCCESS : ButtonVariant.ERROR);
        getFooter().add(cancel, confirm);
    }

    private void confirm(boolean approve, Consumer<@Nullable String> decide) {
        String text = reason.getValue().strip();
        if (!approve && text.isEmpty()) {
            reason.setErrorMessage(REASON_REQUIRED);
            reason.setInvalid(true);
            reason.focus();
            return;
        }
        decide.accept(text.isEmpty() ? null : text);
        close();
    }
}

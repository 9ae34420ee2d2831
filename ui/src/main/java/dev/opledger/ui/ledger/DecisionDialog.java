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
 * Asks before a person's decision on an operation: approve (an optional note), reject (a reason
 * is required: it goes to the audit trail and ends the operation FAILED), or cancel (an optional
 * reason). The dialog closes once {@code decide} returned; if it throws, it stays open with the
 * text typed.
 */
public class DecisionDialog extends Dialog {

    static final String REASON_REQUIRED = "Give a reason: it is kept with the decision and in the audit trail.";

    /** The texts and element ids of one kind of decision. */
    public record Kind(String idPrefix, String title, String what, String label, String placeholder, boolean reasonRequired,
            String confirm, ButtonVariant variant) {
    }

    static Kind approval(boolean approve, OperationId operationId) {
        return approve
                ? new Kind("decision", "Approve this operation?", "Operation " + operationId
                        + " goes back to the workers, and its run goes on past the approval.", "Note (optional)",
                        "e.g. customer confirmed by phone", false, "Approve", ButtonVariant.SUCCESS)
                : new Kind("decision", "Reject this operation?", "Operation " + operationId
                        + " goes back to the workers, whose run undoes what it did (a checkout releases its reservation) "
                        + "and ends it FAILED.", "Reason", "e.g. card reported stolen", true, "Reject", ButtonVariant.ERROR);
    }

    /** The cancel of an operation, for every view that offers it (the operation view, Stuck tasks). */
    public static Kind cancellation(OperationId operationId) {
        return new Kind("cancel", "Cancel this operation?", "Operation " + operationId + " makes no further effect. "
                + "Waiting or not yet started, it is cancelled at once; running, its worker stops at the next step "
                + "boundary, and an effect already in flight may still land (the ledger says so). Nothing is undone.",
                "Reason (optional)", "e.g. customer asked by phone", false, "Cancel operation", ButtonVariant.ERROR);
    }

    private final TextArea reason;

    DecisionDialog(boolean approve, OperationId operationId, Consumer<@Nullable String> decide) {
        this(approval(approve, operationId), decide);
    }

    public DecisionDialog(Kind kind, Consumer<@Nullable String> decide) {
        setId(kind.idPrefix() + "-dialog");
        setHeaderTitle(kind.title());
        setModal(true);
        setCloseOnOutsideClick(false);

        var what = new Paragraph(kind.what());
        what.getStyle().set("max-width", "32rem");
        reason = new TextArea(kind.label());
        reason.setId(kind.idPrefix() + "-reason");
        reason.setRequiredIndicatorVisible(kind.reasonRequired());
        reason.setMaxLength(ApprovalService.MAX_REASON_LENGTH);
        reason.setWidthFull();
        reason.setPlaceholder(kind.placeholder());
        reason.addValueChangeListener(change -> {
            if (!change.getValue().isBlank()) {
                reason.setInvalid(false);
            }
        });
        add(what, reason);

        // "Back", not "Cancel": the dialog may itself be about cancelling the operation
        var back = new Button("Back", click -> close());
        back.setId(kind.idPrefix() + "-back");
        var confirm = new Button(kind.confirm(), click -> confirm(click.getSource(), kind.reasonRequired(), decide));
        confirm.setId(kind.idPrefix() + "-confirm");
        // a double click is one decision: the second click finds the button disabled
        confirm.setDisableOnClick(true);
        confirm.addThemeVariants(ButtonVariant.PRIMARY, kind.variant());
        getFooter().add(back, confirm);
    }

    private void confirm(Button confirm, boolean reasonRequired, Consumer<@Nullable String> decide) {
        String text = reason.getValue().strip();
        if (reasonRequired && text.isEmpty()) {
            confirm.setEnabled(true);
            reason.setErrorMessage(REASON_REQUIRED);
            reason.setInvalid(true);
            reason.focus();
            return;
        }
        try {
            decide.accept(text.isEmpty() ? null : text);
        } catch (RuntimeException e) {
            confirm.setEnabled(true);
            throw e;
        }
        close();
    }
}

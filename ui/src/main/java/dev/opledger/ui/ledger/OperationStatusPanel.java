package dev.opledger.ui.ledger;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import dev.opledger.claim.CancelRecord;
import dev.opledger.claim.OperationDetail;
import dev.opledger.operation.OperationStatus;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The operation's current status, large, with why it is there and where a cancel stands; for an
 * operation awaiting approval, the Approve and Reject buttons; for one that has not ended and has
 * no cancel yet, Cancel (the façades check the role again).
 */
class OperationStatusPanel extends Div {

    /** The statuses a cancel changes anything in (the façade decides again: the status may have moved on). */
    private static final Set<OperationStatus> CANCELLABLE = EnumSet.of(OperationStatus.ACCEPTED, OperationStatus.RUNNING,
            OperationStatus.AWAITING_APPROVAL, OperationStatus.AWAITING_INPUT);

    /** What the buttons ask for: approve ({@code true}) or reject. */
    interface Decide {
        void decide(boolean approve);
    }

    OperationStatusPanel(OperationDetail detail, Optional<CancelRecord> cancel, Decide decide, Runnable askToCancel) {
        setId("operation-status-panel");
        OperationStatus status = detail.operation().status();
        var label = new Span("Status");
        label.getStyle().set("display", "block").set("font-size", "0.875rem").set("opacity", "0.7");
        var value = new Span(status.name());
        value.setId("operation-status");
        value.getStyle().set("font-size", "1.5rem").set("font-weight", "600").set("font-family", "monospace");
        add(label, value);
        StatusText.reason(status, detail.statusReason()).ifPresent(reason -> {
            var text = new Paragraph(reason);
            text.setId("operation-status-reason");
            text.getStyle().set("margin", "0.25rem 0 0 0").set("white-space", "pre-wrap");
            add(text);
        });
        cancel.ifPresent(record -> {
            var text = new Paragraph("Cancel " + TimelineText.resolution(record) + " (requested by "
                    + record.requestedBy() + ")");
            text.setId("operation-cancel-state");
            text.getStyle().set("margin", "0.25rem 0 0 0");
            add(text);
        });
        var actions = new HorizontalLayout();
        actions.getStyle().set("margin-top", "0.5rem");
        if (status == OperationStatus.AWAITING_APPROVAL) {
            var approve = new Button("Approve…", click -> decide.decide(true));
            approve.setId("approve-operation");
            approve.addThemeVariants(ButtonVariant.PRIMARY, ButtonVariant.SUCCESS);
            var reject = new Button("Reject…", click -> decide.decide(false));
            reject.setId("reject-operation");
            reject.addThemeVariants(ButtonVariant.ERROR);
            actions.add(approve, reject);
        }
        if (cancel.isEmpty() && CANCELLABLE.contains(status)) {
            var cancelButton = new Button("Cancel operation…", click -> askToCancel.run());
            cancelButton.setId("cancel-operation");
            cancelButton.addThemeVariants(ButtonVariant.ERROR, ButtonVariant.TERTIARY);
            actions.add(cancelButton);
        }
        if (actions.getComponentCount() > 0) {
            add(actions);
        }
        getStyle().set("padding", "0.75rem 1rem").set("border-radius", "0.5rem").set("border-left", "0.375rem solid")
                .set("border-left-color", accent(status)).set("background", "rgba(127, 127, 127, 0.08)")
                .set("width", "100%").set("box-sizing", "border-box");
    }

    private static String accent(OperationStatus status) {
        return switch (status) {
            case SUCCEEDED -> "#1f9d55";
            case FAILED, CANCELLED -> "#d0312d";
            case NEEDS_REVIEW, AWAITING_APPROVAL, AWAITING_INPUT -> "#e0a100";
            case ACCEPTED, RUNNING -> "#2f6fdb";
        };
    }
}

package dev.opledger.ui.ledger;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.textfield.TextArea;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.review.ReviewService;
import java.util.function.Consumer;

/**
 * Asks before an unknown outcome is resolved, saying what each answer makes the run do, and
 * takes the note every resolution needs (it is kept with the resolution and in the audit trail).
 * The dialog closes once {@code resolve} returned; if it throws, it stays open with the text typed.
 */
class ResolutionDialog extends Dialog {

    static final String NOTE_REQUIRED = "Say what you found downstream: it is kept with the resolution and in the "
            + "audit trail.";

    private final TextArea note;

    ResolutionDialog(EffectResolution resolution, UnknownEffect effect, Consumer<String> resolve) {
        setId("resolution-dialog");
        String call = effect.tool() + " for step " + effect.stepKey();
        setHeaderTitle(switch (resolution) {
            case LANDED -> "The call of " + call + " landed?";
            case NOT_LANDED -> "The call of " + call + " did not land?";
            case GIVEN_UP -> "Give this operation up?";
        });
        setModal(true);
        setCloseOnOutsideClick(false);
        var what = new Paragraph(switch (resolution) {
            case LANDED -> "Its record becomes SUCCEEDED with your note, and the operation goes back to the workers, "
                    + "whose run goes on after this step without calling " + effect.tool() + ".";
            case NOT_LANDED -> "The operation goes back to the workers, whose run calls " + effect.tool()
                    + " once more for this step. You take responsibility for that call: if the first one did land, "
                    + "its effect happens twice.";
            case GIVEN_UP -> "The operation goes back to the workers, whose run ends this step FAILED with your "
                    + "reason, without calling " + effect.tool() + ", and does what its graph does after a failed step.";
        });
        what.getStyle().set("max-width", "32rem");
        note = new TextArea(resolution == EffectResolution.GIVEN_UP ? "Reason" : "What you found");
        note.setId("resolution-note");
        note.setRequiredIndicatorVisible(true);
        note.setMaxLength(ReviewService.MAX_NOTE_LENGTH);
        note.setWidthFull();
        note.setPlaceholder(switch (resolution) {
            case LANDED -> "e.g. the message is in the provider's sent log, id 4711";
            case NOT_LANDED -> "e.g. no message in the provider's log since 10:02";
            case GIVEN_UP -> "e.g. customer cancelled by phone";
        });
        note.addValueChangeListener(change -> {
            if (!change.getValue().isBlank()) {
                note.setInvalid(false);
            }
        });
        add(what, note);

        var cancel = new Button("Cancel", click -> close());
        cancel.setId("resolution-cancel");
        var confirm = new Button(switch (resolution) {
            case LANDED -> "It landed";
            case NOT_LANDED -> "Call it once more";
            case GIVEN_UP -> "Give up";
        }, click -> confirm(resolve));
        confirm.setId("resolution-confirm");
        confirm.addThemeVariants(ButtonVariant.PRIMARY,
                resolution == EffectResolution.GIVEN_UP ? ButtonVariant.ERROR : ButtonVariant.SUCCESS);
        getFooter().add(cancel, confirm);
    }

    private void confirm(Consumer<String> resolve) {
        String text = note.getValue().strip();
        if (text.isEmpty()) {
            note.setErrorMessage(NOTE_REQUIRED);
            note.setInvalid(true);
            note.focus();
            return;
        }
        resolve.accept(text);
        close();
    }
}

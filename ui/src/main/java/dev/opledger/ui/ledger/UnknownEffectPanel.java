package dev.opledger.ui.ledger;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import dev.opledger.effect.EffectResolution;
import dev.opledger.effect.UnknownEffect;
import dev.opledger.ui.Formats;
import java.util.function.Consumer;

/**
 * The call whose outcome is unknown, for an operation in NEEDS_REVIEW: which tool, for which step,
 * with which arguments (their digest, as the effect record holds it) and since when; and the
 * three things support staff can say after looking downstream (the façade checks the role again).
 */
class UnknownEffectPanel extends Div {

    UnknownEffectPanel(UnknownEffect effect, Consumer<EffectResolution> ask) {
        setId("unknown-effect");
        var what = new Paragraph("The call of " + effect.tool() + " for step " + effect.stepKey() + " may have run: "
                + "its outcome was never recorded, and calling again could do it twice. Look at the downstream "
                + "system (" + effect.server() + "), then say what you found.");
        what.getStyle().set("margin", "0 0 0.5rem 0");
        add(new H3("Unknown outcome"), what,
                field("Tool", effect.server() + " / " + effect.tool() + " (" + TimelineText.repeatClass(effect.repeatClass())
                        + ")", "unknown-effect-tool"),
                field("Step", effect.stepKey(), "unknown-effect-step"),
                field("Arguments digest", effect.argumentDigest() == null ? "— (no canonical form)"
                        : "sha256:" + effect.argumentDigest(), "unknown-effect-digest"),
                field("Started", Formats.instant(effect.startedAt()) + " (" + effect.calls()
                        + (effect.calls() == 1 ? " call" : " calls") + ")", "unknown-effect-started"));

        var landed = new Button("It landed…", click -> ask.accept(EffectResolution.LANDED));
        landed.setId("resolve-landed");
        landed.addThemeVariants(ButtonVariant.PRIMARY, ButtonVariant.SUCCESS);
        var notLanded = new Button("It did not land…", click -> ask.accept(EffectResolution.NOT_LANDED));
        notLanded.setId("resolve-not-landed");
        notLanded.addThemeVariants(ButtonVariant.PRIMARY);
        var giveUp = new Button("Give up…", click -> ask.accept(EffectResolution.GIVEN_UP));
        giveUp.setId("resolve-give-up");
        giveUp.addThemeVariants(ButtonVariant.ERROR);
        var actions = new HorizontalLayout(landed, notLanded, giveUp);
        actions.getStyle().set("margin-top", "0.5rem");
        add(actions);
        getStyle().set("padding", "0.75rem 1rem").set("border-radius", "0.5rem").set("border-left", "0.375rem solid")
                .set("border-left-color", "#e0a100").set("background", "rgba(224, 161, 0, 0.08)").set("width", "100%")
                .set("box-sizing", "border-box");
    }

    private static Div field(String label, String value, String id) {
        var name = new Span(label + ": ");
        name.getStyle().set("opacity", "0.7");
        var text = new Span(value);
        text.setId(id);
        text.getStyle().set("font-family", "monospace").set("word-break", "break-all");
        return new Div(name, text);
    }
}

package dev.opledger.ui.tools;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.html.Pre;
import com.vaadin.flow.component.textfield.TextArea;
import dev.opledger.classification.ProbeDecision;
import dev.opledger.classification.ToolProbe;
import dev.opledger.classification.ToolRegistryService;
import dev.opledger.ui.Formats;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One probe with its evidence: what each run answered, what the second run did, the suggestion
 * and why, and what the server's read tools showed. An admin accepts or rejects an open
 * suggestion here, with a reason; the decision names the tool version the dialog was opened on.
 */
class ProbeDialog extends Dialog {

    /** What an admin's decision asks the registry. */
    record Decision(boolean accept, String reason) {
    }

    private final TextArea reason = new TextArea("Reason");
    private final Paragraph problem = new Paragraph();

    /** @param decide null for someone who may only look */
    ProbeDialog(ToolProbe probe, @Nullable Function<Decision, ProbeDecision> decide, Runnable decided) {
        setId("tool-probe-dialog");
        setHeaderTitle("Probe " + probe.id() + " of " + probe.server() + "/" + probe.tool());
        setWidth("48rem");
        var summary = new Paragraph(ToolText.probe(probe));
        summary.setId("tool-probe-summary");
        var explanation = new Paragraph(Formats.orDash(probe.explanation()));
        explanation.setId("tool-probe-explanation");
        var runs = new Paragraph("First run: " + ToolText.run(probe.first()) + ". Second run: " + ToolText.run(probe.second())
                + ". Arguments: " + probe.arguments() + ". Prepared with: " + probe.prepare() + ". Asked by "
                + probe.requestedBy() + " at " + Formats.instant(probe.startedAt()) + (probe.wallMillis() == null ? ""
                : ", took " + probe.wallMillis() + " ms") + ".");
        runs.setId("tool-probe-runs");
        runs.getStyle().set("word-break", "break-all");
        var evidence = new Pre(Formats.orDash(probe.evidence()));
        evidence.setId("tool-probe-evidence");
        evidence.getStyle().set("white-space", "pre-wrap").set("word-break", "break-all").set("max-height", "16rem")
                .set("overflow", "auto");
        add(summary, explanation, runs, evidence);
        var close = new Button("Close", click -> close());
        close.setId("tool-probe-close");
        getFooter().add(close);
        if (decide != null && probe.decision() == ToolProbe.Decision.OPEN) {
            reason.setId("tool-probe-reason");
            reason.setRequiredIndicatorVisible(true);
            reason.setMaxLength(ToolRegistryService.MAX_REASON_LENGTH);
            reason.setWidthFull();
            problem.setId("tool-probe-problem");
            add(reason, problem);
            var accept = new Button("Accept " + probe.suggested(), click -> decide(true, decide, decided));
            accept.setId("tool-probe-accept");
            accept.addThemeVariants(ButtonVariant.PRIMARY);
            var reject = new Button("Reject", click -> decide(false, decide, decided));
            reject.setId("tool-probe-reject");
            getFooter().add(reject, accept);
        }
    }

    private void decide(boolean accept, Function<Decision, ProbeDecision> decide, Runnable decided) {
        if (reason.getValue().isBlank()) {
            reason.setErrorMessage(ToolEditDialog.REASON_REQUIRED);
            reason.setInvalid(true);
            return;
        }
        switch (decide.apply(new Decision(accept, reason.getValue().strip()))) {
            case ProbeDecision.Decided done -> {
                decided.run();
                close();
            }
            case ProbeDecision.ChangedMeanwhile changed -> problem.setText(ToolEditDialog.CHANGED_MEANWHILE + ": the tool "
                    + "is now " + ToolRegistryService.describe(changed.current().toolClass()) + ". Close and open the probe "
                    + "again to decide on what it is now.");
            case ProbeDecision.NotOpen notOpen -> problem.setText("Someone decided first: the suggestion is "
                    + notOpen.decision().name().toLowerCase() + ".");
            case ProbeDecision.NotFound missing -> problem.setText("No such probe any more.");
        }
    }
}

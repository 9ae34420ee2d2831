package dev.opledger.ui.tools;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.textfield.TextArea;
import dev.opledger.classification.ProbeOutcome;
import dev.opledger.classification.RegisteredTool;
import dev.opledger.classification.ToolProbe;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Asks an admin what to probe a tool with — the calls that prepare the sandbox and the
 * arguments both runs get, as JSON, paths relative to the probe's own directory — and runs it.
 * A refusal (a path outside the sandbox, a request that is not JSON) is shown here and nothing
 * is called; a probe that ran is handed on to be shown with its evidence.
 */
class RunProbeDialog extends Dialog {

    static final String TEMPLATE = "{\"prepare\": [], \"arguments\": {}}";

    RunProbeDialog(RegisteredTool tool, Function<String, ProbeOutcome> probe, Consumer<ToolProbe> probed) {
        setId("tool-run-probe-dialog");
        String name = tool.toolClass().server() + "/" + tool.toolClass().tool();
        setHeaderTitle("Probe " + name);
        setWidth("40rem");
        var what = new Paragraph("Runs " + name + " twice with the same arguments in the server's sandbox, and reads "
                + "the sandbox's state before and after each run. Paths are relative to the probe's own directory there.");
        var request = new TextArea("Probe (JSON)");
        request.setId("tool-run-probe-request");
        request.setValue(TEMPLATE);
        request.setWidthFull();
        var problem = new Paragraph();
        problem.setId("tool-run-probe-problem");
        add(what, request, problem);
        var cancel = new Button("Cancel", click -> close());
        var run = new Button("Run probe", click -> {
            switch (probe.apply(request.getValue())) {
                case ProbeOutcome.Probed done -> {
                    close();
                    probed.accept(done.probe());
                }
                case ProbeOutcome.Refused refused -> problem.setText("Refused: " + refused.reason());
                case ProbeOutcome.AlreadyRunning running -> problem.setText("Probe " + running.probeId() + " of this tool "
                        + "is running (since " + dev.opledger.ui.Formats.instant(running.startedAt()) + "): try again "
                        + "when it is done.");
            }
        });
        run.setId("tool-run-probe-run");
        run.addThemeVariants(ButtonVariant.PRIMARY);
        getFooter().add(cancel, run);
    }
}

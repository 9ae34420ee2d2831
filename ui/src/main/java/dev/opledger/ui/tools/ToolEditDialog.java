package dev.opledger.ui.tools;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.select.Select;
import com.vaadin.flow.component.textfield.IntegerField;
import com.vaadin.flow.component.textfield.TextArea;
import com.vaadin.flow.component.textfield.TextField;
import dev.opledger.classification.LandedCheck;
import dev.opledger.classification.RegisteredTool;
import dev.opledger.classification.RepeatClass;
import dev.opledger.classification.RetryPolicy;
import dev.opledger.classification.ToolClass;
import dev.opledger.classification.ToolEditOutcome;
import dev.opledger.classification.ToolRegistryService;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * An admin's edit of one tool's class, check and retry policy, with the required reason. The
 * edit names the version the dialog was opened on: if someone changed the tool since, the dialog
 * stays open with what was typed, says so and shows the tool as it is now; saving again then
 * replaces that on purpose.
 */
class ToolEditDialog extends Dialog {

    static final String CHANGED_MEANWHILE = "Changed by someone else since you opened it";
    static final String REASON_REQUIRED = "Give a reason: it is kept with the class and in the audit trail.";

    /** What the dialog's edit asks the registry: the read version and the edit. */
    record Edit(long readVersion, RepeatClass repeatClass, @Nullable LandedCheck check, RetryPolicy retry, String reason) {
    }

    private final Select<RepeatClass> repeatClass = new Select<>();
    private final TextField checkTool = new TextField("Check tool");
    private final TextField landedField = new TextField("Landed field");
    private final IntegerField maxCalls = new IntegerField("Max calls");
    private final IntegerField backoff = new IntegerField("Backoff (ms)");
    private final IntegerField callTimeout = new IntegerField("Call timeout (ms)");
    private final TextArea reason = new TextArea("Reason");
    private final Paragraph problem = new Paragraph();
    private RegisteredTool read;

    ToolEditDialog(RegisteredTool tool, Function<Edit, ToolEditOutcome> edit, Runnable edited) {
        this.read = tool;
        ToolClass current = tool.toolClass();
        setId("tool-edit-dialog");
        setHeaderTitle("Edit " + current.server() + "/" + current.tool());
        setModal(true);
        setCloseOnOutsideClick(false);

        repeatClass.setId("tool-edit-class");
        repeatClass.setLabel("Repeat class");
        repeatClass.setItems(RepeatClass.values());
        repeatClass.setValue(current.repeatClass());
        repeatClass.addValueChangeListener(change -> showCheck());
        checkTool.setId("tool-edit-check-tool");
        landedField.setId("tool-edit-landed-field");
        if (current.check() != null) {
            checkTool.setValue(current.check().tool());
            landedField.setValue(current.check().landedField() == null ? "" : current.check().landedField());
        }
        maxCalls.setId("tool-edit-max-calls");
        maxCalls.setMin(1);
        backoff.setId("tool-edit-backoff");
        backoff.setMin(0);
        callTimeout.setId("tool-edit-call-timeout");
        callTimeout.setMin(1);
        RetryPolicy retry = current.retry();
        maxCalls.setValue(retry.maxCalls());
        backoff.setValue(retry.backoff() == null ? null : (int) retry.backoff().toMillis());
        callTimeout.setValue(retry.callTimeout() == null ? null : (int) retry.callTimeout().toMillis());
        for (IntegerField field : List.of(maxCalls, backoff, callTimeout)) {
            field.setPlaceholder("node default");
        }
        reason.setId("tool-edit-reason");
        reason.setRequiredIndicatorVisible(true);
        reason.setMaxLength(ToolRegistryService.MAX_REASON_LENGTH);
        reason.setWidthFull();
        problem.setId("tool-edit-problem");
        problem.getStyle().set("color", "var(--lumo-error-text-color)").set("max-width", "32rem");
        problem.setVisible(false);
        showCheck();
        add(repeatClass, checkTool, landedField, maxCalls, backoff, callTimeout, reason, problem);

        var cancel = new Button("Cancel", click -> close());
        cancel.setId("tool-edit-cancel");
        var save = new Button("Save", click -> save(edit, edited));
        save.setId("tool-edit-save");
        save.addThemeVariants(ButtonVariant.PRIMARY);
        getFooter().add(cancel, save);
    }

    private void showCheck() {
        boolean checked = repeatClass.getValue() == RepeatClass.CHECK_THEN_WRITE;
        checkTool.setVisible(checked);
        landedField.setVisible(checked);
    }

    private void save(Function<Edit, ToolEditOutcome> edit, Runnable edited) {
        if (reason.getValue().isBlank()) {
            reason.setErrorMessage(REASON_REQUIRED);
            reason.setInvalid(true);
            reason.focus();
            return;
        }
        reason.setInvalid(false);
        if (maxCalls.isInvalid() || backoff.isInvalid() || callTimeout.isInvalid()) {
            fail("Max calls must be at least 1, backoff at least 0 ms and the call timeout at least 1 ms (empty: the node's default).");
            return;
        }
        LandedCheck check = null;
        if (repeatClass.getValue() == RepeatClass.CHECK_THEN_WRITE) {
            if (checkTool.getValue().isBlank()) {
                fail("A check-then-write tool names its check: the read tool that tells whether the effect landed.");
                return;
            }
            LandedCheck before = read.toolClass().check();
            String tool = checkTool.getValue().strip();
            String landed = landedField.getValue().isBlank() ? null : landedField.getValue().strip();
            // the check's argument and result mapping is not edited here: kept while it is the same read tool
            check = before != null && before.tool().equals(tool)
                    ? new LandedCheck(tool, before.arguments(), landed, before.resultFields())
                    : new LandedCheck(tool, List.of(), landed, List.of());
        }
        var retry = new RetryPolicy(maxCalls.getValue(), millis(backoff.getValue()), millis(callTimeout.getValue()));
        switch (edit.apply(new Edit(read.toolClass().version(), repeatClass.getValue(), check, retry,
                reason.getValue().strip()))) {
            case ToolEditOutcome.Edited done -> {
                close();
                edited.run();
            }
            case ToolEditOutcome.ChangedMeanwhile meanwhile -> {
                read = meanwhile.current();
                fail(CHANGED_MEANWHILE + ": it is now "
                        + ToolRegistryService.describe(meanwhile.current().toolClass()) + " — reason: "
                        + meanwhile.current().toolClass().reason()
                        + ". Your edit was not applied; Save again to replace it with yours.");
                edited.run();
            }
            case ToolEditOutcome.NotFound missing -> fail("The registry no longer has this tool.");
        }
    }

    private void fail(String message) {
        problem.setText(message);
        problem.setVisible(true);
    }

    private static @Nullable Duration millis(@Nullable Integer value) {
        return value == null ? null : Duration.ofMillis(value);
    }
}

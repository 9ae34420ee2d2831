package dev.opledger.ui.ledger;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.checkbox.Checkbox;
import com.vaadin.flow.component.dialog.Dialog;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Paragraph;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.replay.PlannedEffect;
import dev.opledger.replay.ReplayAction;
import dev.opledger.replay.ReplayPlan;
import dev.opledger.replay.ReplayService;
import dev.opledger.replay.ReplayStartOutcome;
import dev.opledger.ui.Formats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A replay's dry run, shown before anything happens: every effect recorded after the chosen
 * checkpoint and what the replay does with it, an acknowledgement checkbox per blocked effect
 * (naming it: the person takes responsibility for a possible second effect), and Start, which only
 * an admin is offered (the server checks the role again, and that the plan is still the one shown).
 */
class ReplayDialog extends Dialog {

    private final Map<String, Checkbox> acknowledgements = new LinkedHashMap<>();

    ReplayDialog(ReplayService replays, SubjectId subject, OperationId operationId, ReplayPlan plan, boolean admin,
            Consumer<ReplayStartOutcome> started) {
        setId("replay-dialog");
        setHeaderTitle("Replay from checkpoint #" + plan.checkpoint().seq() + " (after " + plan.checkpoint().nodeId()
                + ", next " + plan.checkpoint().nextNodeId() + ")");
        setModal(true);
        setCloseOnOutsideClick(false);
        setWidth("60rem");
        long served = count(plan, ReplayAction.SERVED);
        long called = count(plan, ReplayAction.CALLED);
        var what = new Paragraph("Dry run: the graph is forked from this checkpoint and the steps after it run again. "
                + plan.effects().size() + " effect(s) were recorded after it: " + served + " served from their record "
                + "(no call), " + called + " called again as their class allows, " + plan.blocked().size()
                + " blocked." + plan.approvalAskedAgain().map(decision -> " The approval " + decision.actor()
                        + " gave at " + Formats.instant(decision.decidedAt()) + " is asked for again.").orElse(""));
        what.setId("replay-summary");
        var grid = new Grid<PlannedEffect>();
        grid.setId("replay-plan-grid");
        grid.addColumn(PlannedEffect::stepKey).setHeader("Step").setAutoWidth(true);
        grid.addColumn(PlannedEffect::tool).setHeader("Tool").setAutoWidth(true);
        grid.addColumn(effect -> effect.repeatClass().name()).setHeader("Class").setAutoWidth(true);
        grid.addColumn(effect -> effect.recorded().name()).setHeader("Recorded").setAutoWidth(true);
        grid.addColumn(effect -> effect.action().name()).setHeader("Replay will").setAutoWidth(true);
        grid.addColumn(PlannedEffect::why).setHeader("Why").setFlexGrow(1);
        grid.setItems(plan.effects());
        grid.setAllRowsVisible(true);
        grid.addThemeVariants(GridVariant.ROW_STRIPES, GridVariant.WRAP_CELL_CONTENT);
        grid.setEmptyStateText("No effect was recorded after this checkpoint.");
        add(what, grid);
        for (PlannedEffect blocked : plan.blocked()) {
            var box = new Checkbox("I take responsibility for a possible second effect of " + blocked.tool()
                    + " (step " + blocked.stepKey() + "): call it once more. Unticked, the replay stops before it "
                    + "(NEEDS_REVIEW).");
            box.setId("acknowledge-" + blocked.stepKey());
            box.setEnabled(admin);
            acknowledgements.put(blocked.stepKey(), box);
            add(box);
        }
        var close = new Button("Close", click -> close());
        close.setId("replay-close");
        if (!admin) {
            var only = new Paragraph("Only an admin can start a replay; this is its dry run.");
            only.setId("replay-admin-only");
            add(only);
            getFooter().add(close);
            return;
        }
        var start = new Button("Start replay", click -> {
            List<String> acknowledged = acknowledgements.entrySet().stream()
                    .filter(entry -> entry.getValue().getValue()).map(Map.Entry::getKey).toList();
            started.accept(replays.start(subject, operationId, plan.checkpoint().checkpointId(), plan.digest(),
                    acknowledged));
            close();
        });
        start.setId("replay-start");
        start.addThemeVariants(ButtonVariant.PRIMARY, ButtonVariant.ERROR);
        getFooter().add(close, start);
    }

    private static long count(ReplayPlan plan, ReplayAction action) {
        return plan.effects().stream().filter(effect -> effect.action() == action).count();
    }

    /** What a start came to, readable; every refusal says that nothing changed and why. */
    static String message(ReplayStartOutcome outcome) {
        return switch (outcome) {
            case ReplayStartOutcome.Started started -> "Replay started from checkpoint #"
                    + started.plan().checkpoint().seq() + ": the operation is ACCEPTED again and runs on its fork"
                    + (started.acknowledged().isEmpty() ? "." : "; you acknowledged " + String.join(", ",
                            started.acknowledged()) + ".");
            case ReplayStartOutcome.AlreadyReplaying already -> "Nothing changed: " + already.actor()
                    + " started a replay of this operation at " + Formats.instant(already.startedAt()) + "; it runs.";
            case ReplayStartOutcome.StalePlan stale -> "Nothing changed: the operation changed since this dry run "
                    + "(its records, status or checkpoints). Open \"Replay from here\" again for the current plan.";
            case ReplayStartOutcome.NotAllowed notAllowed -> "Nothing changed: " + notAllowed.why() + ".";
            case ReplayStartOutcome.NotReplayable notReplayable -> "Nothing changed: " + notReplayable.why() + ".";
            case ReplayStartOutcome.NotBlocked notBlocked -> "Nothing changed: step(s) " + String.join(", ",
                    notBlocked.stepKeys()) + " are not blocked in this plan.";
            case ReplayStartOutcome.NotFound notFound -> "Nothing changed: the operation was not found.";
            case ReplayStartOutcome.CheckpointNotFound missing -> "Nothing changed: the operation has no checkpoint "
                    + missing.checkpointId() + ".";
        };
    }
}

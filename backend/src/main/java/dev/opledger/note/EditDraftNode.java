package dev.opledger.note;

import dev.opledger.effect.EffectCheck;
import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.StepResult;
import dev.opledger.mcp.ToolTransportException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * Applies the edit to the draft (edit_file). Its annotations say neither idempotent nor keyed —
 * a second call replaces the next occurrence, or fails once there is none — so on its own it is
 * never-repeat: after a lost answer the operation waits for a person. Configured as
 * check-then-write (application.yaml), the gateway first reads the draft with read_text_file:
 * the edited text means the edit landed (served, not applied again), the written text means it
 * did not (applied now), anything else cannot be told apart (NEEDS_REVIEW).
 */
final class EditDraftNode implements GraphStep<NoteState> {

    static final String TOOL = "edit_file";

    private final NoteEffects effects;

    EditDraftNode(NoteEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(NoteState state, RunnableConfig config) {
        LeaseGuard run = GraphRunner.leaseOf(config);
        String draft = effects.paths(run, state).draft();
        var edit = Map.<String, Object>of("oldText", state.oldText(), "newText", state.newText());
        return effects.perform(run, NoteStep.EDIT, TOOL, Map.of("path", draft, "edits", List.of(edit)),
                landed(state, draft), Map.of(NoteState.EDITED, Map.of("path", draft)));
    }

    private EffectCheck landed(NoteState state, String draft) {
        return () -> {
            String content = effects.readText(draft);
            if (content.equals(state.edited())) {
                return Optional.of(Map.of("path", draft, "checked", "the draft holds the edited text"));
            }
            if (content.equals(state.text())) {
                return Optional.empty();
            }
            throw new ToolTransportException("the draft " + draft + " holds neither the written text nor the edited one");
        };
    }
}

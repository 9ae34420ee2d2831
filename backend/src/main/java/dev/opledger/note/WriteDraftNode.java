package dev.opledger.note;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.StepResult;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;

/**
 * Writes the text to the operation's draft (write_file: idempotent by its annotations, and
 * destructive: it overwrites). Writing the same text to the operation's own draft again changes
 * nothing, which is why it may be repeated; it never writes the published name.
 */
final class WriteDraftNode implements GraphStep<NoteState> {

    static final String TOOL = "write_file";

    private final NoteEffects effects;

    WriteDraftNode(NoteEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(NoteState state, RunnableConfig config) {
        LeaseGuard run = GraphRunner.leaseOf(config);
        String draft = effects.paths(run, state).draft();
        return effects.perform(run, NoteStep.DRAFT, TOOL, Map.of("path", draft, "content", state.text()), null,
                Map.of(NoteState.DRAFTED, Map.of("path", draft)));
    }
}

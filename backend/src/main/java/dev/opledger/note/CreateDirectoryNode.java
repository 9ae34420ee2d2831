package dev.opledger.note;

import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.StepResult;
import java.util.Map;
import org.bsc.langgraph4j.RunnableConfig;

/** Creates the note's directory, parents included (create_directory: idempotent by its annotations). */
final class CreateDirectoryNode implements GraphStep<NoteState> {

    static final String TOOL = "create_directory";

    private final NoteEffects effects;

    CreateDirectoryNode(NoteEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(NoteState state, RunnableConfig config) {
        LeaseGuard run = GraphRunner.leaseOf(config);
        String directory = effects.paths(run, state).directory();
        return effects.perform(run, NoteStep.DIRECTORY, TOOL, Map.of("path", directory), null,
                Map.of(NoteState.CREATED, Map.of("path", directory)));
    }
}

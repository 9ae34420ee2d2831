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
 * Moves the edited draft to the note's name (move_file, which refuses an existing destination:
 * a published note is never overwritten, the operation fails and the draft stays). Its
 * annotations say neither idempotent nor keyed; configured as check-then-write, the gateway first
 * lists the directory with list_directory: the draft still there means not moved; the draft gone
 * and the note holding this operation's text means moved (served); anything else NEEDS_REVIEW.
 */
final class PublishNode implements GraphStep<NoteState> {

    static final String TOOL = "move_file";

    private final NoteEffects effects;

    PublishNode(NoteEffects effects) {
        this.effects = effects;
    }

    @Override
    public StepResult apply(NoteState state, RunnableConfig config) {
        LeaseGuard run = GraphRunner.leaseOf(config);
        NotePaths paths = effects.paths(run, state);
        return effects.perform(run, NoteStep.PUBLISH, TOOL,
                Map.of("source", paths.draft(), "destination", paths.published()), landed(state, paths),
                Map.of(NoteState.PUBLISHED, Map.of("path", paths.published())));
    }

    private EffectCheck landed(NoteState state, NotePaths paths) {
        return () -> {
            List<String> entries = effects.list(paths.directory());
            if (entries.contains("[FILE] " + paths.draftName())) {
                return Optional.empty();
            }
            if (!entries.contains("[FILE] " + state.name())) {
                throw new ToolTransportException("neither the draft " + paths.draftName() + " nor the note "
                        + state.name() + " is in " + paths.directory());
            }
            if (!effects.readText(paths.published()).equals(state.edited())) {
                throw new ToolTransportException("the draft is gone and " + paths.published()
                        + " holds another text than this operation's");
            }
            return Optional.of(Map.of("path", paths.published(), "checked", "the draft is gone and the note holds its text"));
        };
    }
}

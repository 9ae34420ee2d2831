package dev.opledger.note;

import static org.bsc.langgraph4j.StateGraph.END;
import static org.bsc.langgraph4j.StateGraph.START;

import dev.opledger.claim.LeasedOperation;
import dev.opledger.effect.EffectGateway;
import dev.opledger.graph.CheckpointConflictException;
import dev.opledger.graph.ExecutionOutcome;
import dev.opledger.graph.GraphOptions;
import dev.opledger.graph.GraphRunner;
import dev.opledger.graph.GraphService;
import dev.opledger.graph.GraphStep;
import dev.opledger.graph.JsonStateSerializer;
import dev.opledger.graph.LeaseGuard;
import dev.opledger.graph.OperationType;
import dev.opledger.graph.RunOutcome;
import dev.opledger.mcp.ToolClient;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.StateGraph;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The {@code publish-note} operation type, on a node that configures its server
 * ({@code opledger.note.mcp-server}): one graph, compiled once,
 * {@code START → directory → draft → edit → publish → END}, one node per {@link NoteStep}.
 */
@Component
@ConditionalOnProperty(prefix = "opledger.note", name = "mcp-server")
class NoteOperation implements OperationType {

    static final String NAME = "publish-note";
    static final String SCHEMA = "operation-types/publish-note.schema.json";

    private final GraphRunner<NoteState> runner;

    NoteOperation(GraphService graphs, EffectGateway gateway, ObjectProvider<ToolClient> tools,
            NoteProperties properties) {
        String server = properties.mcpServer();
        String root = properties.root();
        if (server == null || server.isBlank()) {
            throw new IllegalArgumentException("opledger.note.mcp-server must name an MCP server");
        }
        if (root == null || !root.startsWith("/")) {
            throw new IllegalArgumentException("opledger.note.root must be the absolute path of the directory MCP server "
                    + server + " may use (its command's last argument), e.g. /srv/files");
        }
        var effects = new NoteEffects(gateway, tools::getObject, server, root);
        this.runner = graphs.runner(graph(effects), GraphOptions.none());
    }

    private static StateGraph<NoteState> graph(NoteEffects effects) {
        try {
            return new StateGraph<>(new JsonStateSerializer<>(NoteState::new))
                    .addNode(NoteStep.DIRECTORY.key(), GraphStep.node(new CreateDirectoryNode(effects)))
                    .addNode(NoteStep.DRAFT.key(), GraphStep.node(new WriteDraftNode(effects)))
                    .addNode(NoteStep.EDIT.key(), GraphStep.node(new EditDraftNode(effects)))
                    .addNode(NoteStep.PUBLISH.key(), GraphStep.node(new PublishNode(effects)))
                    .addEdge(START, NoteStep.DIRECTORY.key())
                    .addEdge(NoteStep.DIRECTORY.key(), NoteStep.DRAFT.key())
                    .addEdge(NoteStep.DRAFT.key(), NoteStep.EDIT.key())
                    .addEdge(NoteStep.EDIT.key(), NoteStep.PUBLISH.key())
                    .addEdge(NoteStep.PUBLISH.key(), END);
        } catch (GraphStateException e) {
            throw new IllegalStateException("the note graph does not build: " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String argumentsSchema() {
        return SCHEMA;
    }

    @Override
    public ExecutionOutcome execute(LeasedOperation operation, LeaseGuard lease) {
        NoteArguments arguments;
        try {
            arguments = NoteArguments.fromCommand(operation.command());
        } catch (IllegalArgumentException e) {
            return new ExecutionOutcome.Failed("the note's arguments cannot be run: " + e.getMessage());
        }
        try {
            return outcome(runner.run(lease, arguments.asState(), operation.firstLease()));
        } catch (CheckpointConflictException e) {
            // refused for a lost lease, or the thread moved on under another writer: either way another node has it
            return new ExecutionOutcome.LeaseLost(e.getMessage());
        }
    }

    private static ExecutionOutcome outcome(RunOutcome outcome) {
        return switch (outcome) {
            // a step ended the run: FAILED, NEEDS_REVIEW or the lease lost, as the step said
            case RunOutcome.Stopped stopped -> stopped.outcome();
            case RunOutcome.Paused paused ->
                    throw new IllegalStateException("the note paused before " + paused.nextNode() + ", which waits for nothing");
            case RunOutcome.Completed completed when new NoteState(completed.state()).published() ->
                    new ExecutionOutcome.Succeeded();
            case RunOutcome.Completed completed -> new ExecutionOutcome.Failed("the note ended before it was published");
        };
    }
}

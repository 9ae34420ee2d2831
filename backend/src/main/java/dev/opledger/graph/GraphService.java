package dev.opledger.graph;

import dev.opledger.effect.RunWrites;

import dev.opledger.graph.internal.CheckpointTable;
import dev.opledger.graph.internal.OperationRuns;
import dev.opledger.operation.OperationId;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.state.AgentState;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/**
 * The graph stage's façade: compiles graphs onto this node's checkpoint saver and reads
 * threads' checkpoint histories. One per node; a second instance on the same DataSource is
 * what another node (or a restarted one) would have.
 */
@Service
public class GraphService {

    private final PostgresCheckpointSaver saver;
    private final CheckpointTable history;
    private final OperationRuns running;

    /** A node of its own: what another node, or a restarted one, has. */
    public GraphService(DataSource dataSource) {
        this(dataSource, new OperationRuns());
    }

    /** With the node's registry of runs, which its worker shares. */
    public GraphService(DataSource dataSource, OperationRuns running) {
        this(dataSource, running, null);
    }

    /**
     * With the node's registry of runs and its held writes: a worker's run commits each step's
     * effect outcome with the step's checkpoint ({@link RunWrites}).
     */
    @Autowired
    public GraphService(DataSource dataSource, OperationRuns running, @Nullable RunWrites held) {
        this.saver = new PostgresCheckpointSaver(dataSource, held);
        this.history = new CheckpointTable(new JdbcTemplate(dataSource));
        this.running = running;
    }

    /**
     * Compiles {@code graph} with this node's saver. Build the graph with a
     * {@link JsonStateSerializer} so nodes see state as a resume will.
     *
     * @throws IllegalArgumentException when langgraph4j refuses the graph (missing edges, unknown interrupt nodes…)
     */
    public <S extends AgentState> GraphRunner<S> runner(StateGraph<S> graph, GraphOptions options) {
        var config = CompileConfig.builder()
                .checkpointSaver(saver)
                .interruptsBefore(options.interruptBefore())
                .interruptsAfter(options.interruptAfter())
                .releaseThread(false)
                .build();
        try {
            return new GraphRunner<>(graph.compile(config), saver, running);
        } catch (GraphStateException e) {
            throw new IllegalArgumentException("graph does not compile: " + e.getMessage(), e);
        }
    }

    /** One checkpoint of the operation's thread, by its id. */
    public java.util.Optional<CheckpointEntry> checkpoint(OperationId operationId, java.util.UUID checkpointId) {
        return history.history(operationId.value()).stream().filter(c -> c.checkpointId().equals(checkpointId))
                .findFirst();
    }

    /**
     * Forks the operation's thread from {@code checkpointId}: appends a copy of it (its state, the
     * node it names next) as the thread's newest checkpoint, its parent the chosen one, and returns
     * the copy's id. This is langgraph4j's {@code updateState} on a config naming the checkpoint
     * ({@code withCheckPointId}) with no values, as this node's saver stores one (a new checkpoint
     * whose parent is the named one; nothing rewritten). The next run of the thread, on any node,
     * resumes from it and runs the nodes after the chosen checkpoint again. One statement that
     * joins the caller's transaction, so a replay's start and its fork commit together; empty when
     * the thread has no such checkpoint.
     */
    public java.util.Optional<java.util.UUID> fork(OperationId operationId, java.util.UUID checkpointId) {
        return history.fork(operationId.value(), checkpointId, java.util.UUID.randomUUID());
    }

    /** Every checkpoint the operation's thread has, newest first (released runs included). */
    public List<CheckpointEntry> history(OperationId operationId) {
        return history.history(operationId.value());
    }
}

/**
 * Operations run as langgraph4j graphs: one operation is one thread ({@code thread_id =
 * operationId}), checkpointed after every node in PostgreSQL by
 * {@link dev.opledger.graph.PostgresCheckpointSaver}. {@link dev.opledger.graph.GraphService}
 * is the façade: it compiles a graph into a {@link dev.opledger.graph.GraphRunner} that starts,
 * resumes, updates and replays threads by operationId, and reads a thread's checkpoint history.
 * {@link dev.opledger.graph.TimelineService} gives the console an operation's whole timeline.
 * docs/graph.md tells what resumes and what runs again.
 */
@NullMarked
package dev.opledger.graph;

import org.jspecify.annotations.NullMarked;

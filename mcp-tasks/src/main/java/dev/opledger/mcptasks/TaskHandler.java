package dev.opledger.mcptasks;

import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.util.Map;
import java.util.Optional;

/**
 * A server's tasks behind {@link TasksFeature}: each method gets the request (for the caller's
 * identity: a task is visible only to whoever may see it) and the task id. The feature has checked
 * that the client declared the extension and that the id is a string. May block (it runs off the
 * transport's threads). Throw an {@code McpException} for any other JSON-RPC error.
 */
public interface TaskHandler {

    /** {@code tasks/get}: the task now; empty when the caller has no task of that id. */
    Optional<GetTaskResult> get(McpRequestContext context, String taskId);

    /** {@code tasks/update} with the request's params: false when the caller has no task of that id. */
    boolean update(McpRequestContext context, String taskId, Map<?, ?> params);

    /**
     * {@code tasks/cancel}: signal the intent to cancel (cooperative: the task may still end
     * otherwise; a terminal task stays as it is). False when the caller has no task of that id.
     */
    boolean cancel(McpRequestContext context, String taskId);
}

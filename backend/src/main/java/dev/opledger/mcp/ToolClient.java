package dev.opledger.mcp;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** Calls tools of the configured MCP servers. */
public interface ToolClient {

    /** One {@code tools/call}; a tool error is a reply, not an exception. */
    ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException;

    /**
     * One {@code tools/call} whose outcome counts as unknown after {@code timeout} (or the
     * server's own timeout, if that is shorter).
     */
    default ToolReply call(ToolRef tool, Map<String, Object> arguments, Duration timeout) throws ToolTransportException {
        return call(tool, arguments);
    }

    /**
     * One {@code tools/call} that declares the MCP tasks extension, so the server may answer with a
     * task instead of the result. A client or server that does not speak the extension answers with
     * the reply, as {@link #call(ToolRef, Map, Duration)}.
     *
     * @param timeout after which the answer counts as unknown; null: the server's own timeout
     */
    default ToolAnswer callAllowingTask(ToolRef tool, Map<String, Object> arguments, @Nullable Duration timeout)
            throws ToolTransportException {
        return new ToolAnswer.Replied(timeout == null ? call(tool, arguments) : call(tool, arguments, timeout));
    }

    /**
     * {@code tasks/get} of a task the tool's server made ({@link ToolAnswer.TaskStarted}).
     *
     * @throws ToolTransportException when the server cannot be reached or does not answer: the task goes on or not
     */
    default TaskState task(ToolRef tool, String taskId) throws ToolTransportException {
        throw new ToolTransportException("reading task " + taskId + " of " + tool + " is not supported by this client");
    }

    /**
     * {@code tasks/cancel} of a task the tool's server made: cooperative, the task may still end
     * otherwise (read it with {@link #task}).
     *
     * @throws ToolTransportException when the server cannot be reached or does not answer
     */
    default TaskCancellation cancelTask(ToolRef tool, String taskId) throws ToolTransportException {
        throw new ToolTransportException("cancelling task " + taskId + " of " + tool + " is not supported by this client");
    }

    /** The configured servers. */
    default List<ToolServer> servers() {
        return List.of();
    }

    /**
     * Every tool the server lists now ({@code tools/list}, all pages), asked afresh.
     *
     * @throws ToolTransportException when the server cannot be reached or does not answer
     * @throws IllegalArgumentException if no server of that name is configured
     */
    default List<ListedTool> list(String server) throws ToolTransportException {
        throw new ToolTransportException("listing the tools of " + server + " is not supported by this client");
    }

    /** The tool's annotations as its server lists them; empty when the tool or server is unknown. */
    Optional<ToolHints> hints(ToolRef tool);
}

package dev.opledger.mcp.internal;

import dev.opledger.mcp.ListedTool;
import dev.opledger.mcp.TaskCancellation;
import dev.opledger.mcp.TaskState;
import dev.opledger.mcp.ToolAnswer;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolReply;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An SDK client of one server in one revision. Thread-safe: concurrent calls share it. Failures
 * come as the SDK's unchecked exceptions; {@link Failures} tells what they mean.
 */
sealed interface McpConnection extends AutoCloseable permits ModernConnection, ClassicConnection {

    /** {@link McpProtocol#MODERN} or {@link McpProtocol#CLASSIC}. */
    McpProtocol protocol();

    /**
     * One {@code tools/call}, with {@code meta} as the request's {@code _meta}, given at most
     * {@code timeout} (never more than the server's configured timeout).
     */
    ToolReply call(String tool, Map<String, Object> arguments, Map<String, Object> meta, Duration timeout);

    /**
     * One {@code tools/call} that declares the tasks extension: the server may answer with a task.
     * A revision without the extension answers as {@link #call}.
     */
    default ToolAnswer callAllowingTask(String tool, Map<String, Object> arguments, Map<String, Object> meta,
            Duration timeout) {
        return new ToolAnswer.Replied(call(tool, arguments, meta, timeout));
    }

    /** {@code tasks/get}; only a revision with the extension has tasks. */
    default TaskState task(String taskId, Duration timeout) {
        throw new UnsupportedOperationException("MCP " + protocol() + " has no tasks: task " + taskId + " is unknown");
    }

    /** {@code tasks/cancel}; only a revision with the extension has tasks. */
    default TaskCancellation cancelTask(String taskId, Duration timeout) {
        throw new UnsupportedOperationException("MCP " + protocol() + " has no tasks: task " + taskId + " is unknown");
    }

    /** Every tool the server lists (all pages), as listed. */
    List<ListedTool> listTools();

    /** Every tool the server lists (all pages), with its annotations. */
    default Map<String, ToolHints> tools() {
        Map<String, ToolHints> tools = new LinkedHashMap<>();
        listTools().forEach(tool -> tools.put(tool.name(), tool.hints()));
        return tools;
    }

    /** Releases the client; a stdio server's process is stopped. Never throws. */
    @Override
    void close();
}

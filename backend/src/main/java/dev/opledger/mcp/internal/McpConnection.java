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

    /**
     * {@code tasks/get}. A revision without the extension has no tasks: it answers
     * {@link TaskState.NotFound} without sending anything (a handle stored while the server spoke
     * 2026-07-28 and read after it was reconnected on 2025-11-25 is unknown to it, and the effect
     * gateway treats it as any unknown task: the outcome is unknown, for the repeat class to decide).
     */
    TaskState task(String taskId, Duration timeout);

    /**
     * {@code tasks/cancel}. A revision without the extension has no such method: it answers
     * {@link TaskCancellation#REFUSED} without sending anything.
     */
    TaskCancellation cancelTask(String taskId, Duration timeout);

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

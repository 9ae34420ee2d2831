package dev.opledger.mcp.internal;

import dev.opledger.mcp.ListedTool;
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

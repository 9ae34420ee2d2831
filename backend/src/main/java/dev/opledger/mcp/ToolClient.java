package dev.opledger.mcp;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

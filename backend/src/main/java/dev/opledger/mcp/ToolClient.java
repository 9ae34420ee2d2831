package dev.opledger.mcp;

import java.util.Map;
import java.util.Optional;

/** Calls tools of the configured MCP servers. */
public interface ToolClient {

    /** One {@code tools/call}; a tool error is a reply, not an exception. */
    ToolReply call(ToolRef tool, Map<String, Object> arguments) throws ToolTransportException;

    /** The tool's annotations as its server lists them; empty when the tool or server is unknown. */
    Optional<ToolHints> hints(ToolRef tool);
}

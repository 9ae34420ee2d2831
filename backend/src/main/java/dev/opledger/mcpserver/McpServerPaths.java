package dev.opledger.mcpserver;

/**
 * Where the node serves MCP. api's security configuration names the same path (and the
 * property {@code opledger.mcp-server.required-scope}) for the filter chain that guards it.
 */
public final class McpServerPaths {

    /** The streamable HTTP endpoint. */
    public static final String ENDPOINT = "/mcp";

    private McpServerPaths() {
    }
}

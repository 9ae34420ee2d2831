package dev.opledger.mcp;

/**
 * A configured MCP server, as people may see it.
 *
 * @param location its URL without user info or query, or its command line
 */
public record ToolServer(String name, Transport transport, String location) {

    public enum Transport {
        /** Streamable HTTP. */
        HTTP,
        /** A process speaking over its standard input and output. */
        STDIO
    }
}

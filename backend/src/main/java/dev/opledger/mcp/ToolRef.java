package dev.opledger.mcp;

/** A tool of a configured MCP server, by the server's name in configuration and the tool's name. */
public record ToolRef(String server, String tool) {

    @Override
    public String toString() {
        return server + "/" + tool;
    }
}

/** The MCP server's SDK wiring, tools, tasks and their table ({@code mcp_task}). */
@NullMarked
package dev.opledger.mcpserver.internal;

import org.jspecify.annotations.NullMarked;

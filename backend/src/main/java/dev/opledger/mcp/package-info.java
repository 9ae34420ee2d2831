/**
 * Calling tools of MCP servers. {@link dev.opledger.mcp.ToolClient} is what the effect gateway
 * calls; the MCP Java SDK implementation speaks both the 2026-07-28 and the 2025-11-25 revisions.
 */
@NullMarked
package dev.opledger.mcp;

import org.jspecify.annotations.NullMarked;

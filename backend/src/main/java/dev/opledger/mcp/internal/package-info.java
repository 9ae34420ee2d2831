/**
 * The MCP Java SDK behind {@link dev.opledger.mcp.ToolClient}: one connection per configured
 * server ({@code opledger.mcp.servers}), in the 2026-07-28 or the 2025-11-25 revision, over
 * streamable HTTP or stdio.
 */
@NullMarked
package dev.opledger.mcp.internal;

import org.jspecify.annotations.NullMarked;

/**
 * Serves the tools over streamable HTTP at {@code /mcp}, in both protocol revisions side by side:
 * the 2026-07-28 ("modern", stateless) server of the SDK's {@code io.modelcontextprotocol.modern}
 * API, and the classic 2025-11-25 streamable server with sessions. One servlet picks the revision
 * per request from its headers. Every call goes through {@link dev.opledger.tools.mcp.ToolInvoker}
 * (faults, arguments, the tool), whatever the revision.
 */
@NullMarked
package dev.opledger.tools.mcp;

import org.jspecify.annotations.NullMarked;

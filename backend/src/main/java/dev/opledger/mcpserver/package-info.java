/**
 * The node as an MCP server (2026-07-28 revision, streamable HTTP at {@code /mcp}): every
 * operation type is a tool, a {@code tools/call} submits through
 * {@link dev.opledger.submission.SubmissionService} as an agent (no App Attest, channel MCP), and
 * a client that declares the tasks extension ({@code io.modelcontextprotocol/tasks}) gets a
 * durable task handle for the operation. The bearer token is checked before a request reaches
 * the MCP server (api's security configuration). See docs/mcp.md.
 */
@NullMarked
package dev.opledger.mcpserver;

import org.jspecify.annotations.NullMarked;

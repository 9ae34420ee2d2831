/**
 * A second operation type, {@code publish-note}, on a third-party MCP server (npm's
 * {@code @modelcontextprotocol/server-filesystem}, configured as {@code opledger.note.mcp-server}):
 * create the note's directory, write a draft, apply one edit to it, move it into place. Its
 * tools' repeat classes differ (idempotent, idempotent but destructive, check-then-write by
 * configuration over annotations that say neither), and every effect goes through the effect
 * gateway under its step's key like a checkout's, so the path is not checkout-specific. The type
 * exists only on a node that configures its server; docs/note.md describes it.
 */
@NullMarked
package dev.opledger.note;

import org.jspecify.annotations.NullMarked;
